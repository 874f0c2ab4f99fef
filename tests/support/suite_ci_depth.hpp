// Which listed count of a shared-suite case the CI run checks: deep enough to exercise the
// levels, small enough for two cores.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

#include "notation/fen.hpp"
#include "notation/suite.hpp"
#include "common/uint128.hpp"
#include "support/test_paths.hpp"

namespace perftkit::test_positions {

// The deepest listed count of a case at or under this many nodes is checked; a case that
// lists only bigger counts is checked at its smallest one if that is under the second cap.
inline constexpr u128 SUITE_NODE_CAP = 300'000;
inline constexpr u128 SUITE_SHALLOWEST_CAP = 3'000'000;

// The (depth, count) of a case that the CI run checks, or nullptr.
inline const ExpectedCount* ci_depth(const SuiteCase& c) {
  const ExpectedCount *deepest = nullptr, *shallowest = nullptr;
  for (const ExpectedCount& e : c.expected) {
    if (e.nodes <= SUITE_NODE_CAP && (!deepest || e.depth > deepest->depth)) deepest = &e;
    if (!shallowest || e.depth < shallowest->depth) shallowest = &e;
  }
  if (deepest) return deepest;
  return shallowest && shallowest->nodes <= SUITE_SHALLOWEST_CAP ? shallowest : nullptr;
}

// The path of a shared suite file (it may be missing: the caller skips).
inline std::filesystem::path shared_suite_path(const char* name) {
  return std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft" / name;
}

// Counts every case of the suite at path at its CI depth with count(position, depth) (a
// u128) and expects the published count, stopping at the first mismatch; expects at least
// 95% of the cases to have a CI depth.
template <typename Count>
void expect_suite_at_ci_depths(const std::filesystem::path& path, Count count) {
  const SuiteFileResult suite = read_suite(path, path.filename().string());
  ASSERT_TRUE(suite) << suite.error;
  std::size_t checked = 0;
  for (const SuiteCase& c : suite->cases) {
    const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
    ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
    const ExpectedCount* chosen = ci_depth(c);
    if (!chosen) continue;
    ASSERT_EQ(to_string_u128(count(parsed->position, chosen->depth)), to_string_u128(chosen->nodes))
        << c.source << " depth " << chosen->depth;
    ++checked;
  }
  EXPECT_GE(checked * 100, suite->cases.size() * 95);
}

// A test-name suffix from a suite file name ("perft.epd" -> "perft_epd").
inline std::string suite_test_name(std::string name) {
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
  return name;
}

}  // namespace perftkit::test_positions
