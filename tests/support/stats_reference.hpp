// The reference the pipeline's statistics tests compare with: the CPU core on one thread,
// without a table and without merging, and a text of every counter for the comparison.
#pragma once

#include <string>

#include "perft/driver.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/stats_totals.hpp"

namespace perftkit::testing_support {

// Every counter as name=value, in field order: a mismatch names the counter.
inline std::string describe(const StatsTotals& t) {
  std::string out;
  for (int f = 0; f < STAT_FIELD_NB; ++f)
    out += std::string(stat_json_name(StatField(f))) + "=" + to_string_u128(t.count[f]) + " ";
  return out;
}

// The statistics of root's tree of `depth` plies from the CPU core: one thread, no table, no
// merging.
inline StatsTotals cpu_stats(const Position& root, int depth) {
  PerftRequest req;
  req.root = root;
  req.depth = depth;
  req.stats = true;
  req.threads = 1;
  req.merge_transpositions = false;
  req.backend = Backend::CPU;
  return run_perft(req).stats;
}

}  // namespace perftkit::testing_support
