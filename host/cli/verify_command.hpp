// `perftkit verify`: runs perft suites and compares every count with the expected one.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

#include "perft/driver.hpp"
#include "notation/suite.hpp"

namespace perftkit {

struct VerifyOptions {
  std::vector<std::string> files;
  int max_depth = SUITE_MAX_DEPTH;                                      // deeper checks are skipped
  std::uint64_t max_nodes = std::numeric_limits<std::uint64_t>::max();  // checks expecting more are skipped
  unsigned threads = 0;                                                 // 0: every hardware thread
  Backend backend = Backend::AUTO;
  bool json = false;               // a JSON summary on `out` instead of text lines
  bool quiet = false;              // nothing on `err` but fatal errors
  bool progress = false;           // a live progress line on `err`
  bool progress_in_place = false;  // redraw it in place (err is a terminal); else a line every few seconds
};

// Runs every selected (position, depth) check of the suite files, on all threads. Writes
// failures and the final "N passed, M failed" line (or JSON) to out, timing to err.
// Returns 0 when all passed, 1 on a mismatch or unusable case, 2 on an unreadable file
// or a backend failure (the reason on err).
int run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

// Registers `perftkit verify FILE...`; its exit status is written to exit_code.
void add_verify_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
