// Which listed count of a shared-suite case the CI run checks: deep enough to exercise the
// levels, small enough for two cores.
#pragma once

#include "suite.hpp"
#include "uint128.hpp"

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

}  // namespace perftkit::test_positions
