// Checking perft suites: every (position, depth) a suite lists, counted on a backend and
// handed back with its expected count. `perftkit verify` and the Python module's verify()
// report the results each their own way.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "common/uint128.hpp"
#include "notation/suite.hpp"
#include "perft/driver.hpp"

namespace perftkit {

// One (position, depth) comparison; suite_case points into the suite it was planned from.
struct SuiteCheck {
  const SuiteCase* suite_case = nullptr;
  std::size_t file_index = 0;
  Position root{};
  bool chess960 = false;
  int depth = 0;
  u128 expected = 0;
};

struct SuiteCheckLimits {
  int max_depth = SUITE_MAX_DEPTH;
  u128 max_nodes = std::numeric_limits<u128>::max();
};

// What planning and running report. Each call may come from any of the running threads.
class SuiteCheckListener {
 public:
  virtual ~SuiteCheckListener() = default;
  // A case whose FEN was rejected, and how many of its depths were selected (at least one).
  virtual void invalid_position(std::size_t file_index, const SuiteCase& c, const std::string& reason,
                                std::size_t depths) = 0;
  virtual void finished(const SuiteCheck& check, const PerftReport& report) = 0;
  // The count could not run (a backend failure): message names the case and depth.
  virtual void failed(const SuiteCheck& check, const std::string& message) = 0;
  // Checked before each check starts: true stops the run.
  virtual bool stopped() const { return false; }
};

// The checks of suites (file_index: the place in suites) within limits; skipped counts the
// listed depths beyond them. A rejected FEN goes to listener.invalid_position.
std::vector<SuiteCheck> plan_suite_checks(const std::vector<Suite>& suites, const SuiteCheckLimits& limits,
                                          SuiteCheckListener& listener, std::size_t& skipped);

// Runs the checks on `threads` threads. A check bigger than a quarter of a thread's fair share
// runs alone on all threads (on the requested backend); the rest run one per thread on the
// CPU, biggest first. On CUDA every check of at least ten million nodes runs on the device,
// one after another, and the smaller ones on the CPU.
void run_suite_checks(const std::vector<SuiteCheck>& checks, unsigned threads, Backend backend,
                      SuiteCheckListener& listener);

}  // namespace perftkit
