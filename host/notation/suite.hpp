// Perft suites: positions with expected node counts, read from the three common formats.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_result.hpp"
#include "common/uint128.hpp"

namespace perftkit {

// The deepest depth a suite may list (perft(15) of the start position is a record).
inline constexpr int SUITE_MAX_DEPTH = 64;

struct ExpectedCount {
  int depth = 0;
  u128 nodes = 0;
};

// One position of a suite. The FEN is kept as text (whitespace runs collapsed to one
// space); parse it with parse_epd when from_epd_line, else with parse_fen (fen.hpp).
struct SuiteCase {
  std::string name;  // the block's `id`, or "file:line"
  std::string fen;
  std::string source;  // "file:line" of the FEN
  std::size_t line = 0;
  std::vector<ExpectedCount> expected;  // in the order listed, depths distinct
  bool from_epd_line = false;           // an `epd FEN4` line of the block format
};

// A line that could not be read, with the reason.
struct SuiteError {
  std::string source;  // "file:line"
  std::size_t line = 0;
  std::string reason;
};

struct Suite {
  std::vector<SuiteCase> cases;
  std::vector<SuiteError> errors;
};

// Parses suite text; `file` is the name used in sources. Each line is one of:
//   `FEN ;D1 n ;D2 n ...` or `FEN; D1 n; D2 n` (trailing NUL bytes and CR are ignored),
//   `id NAME`, `epd FEN4`, `perft D N` (blocks), `# comment`, or blank.
// Malformed lines become errors; the rest of the text is still read.
Suite parse_suite(std::string_view text, std::string_view file);

// A suite read from disk, or the reason the file could not be read.
using SuiteFileResult = ParseResult<Suite>;

// Reads and parses a suite file; sources name it as `display_name` (the path when empty).
SuiteFileResult read_suite(const std::filesystem::path& path, std::string_view display_name = {});

}  // namespace perftkit
