// The frontier pipeline run from a root, with any PipelineOptions (chunk sizes, budgets,
// seeds, host plies): the tests' way into pipeline_count_frontier, the pipeline's one entry
// (node counts and statistics). perftkit itself reaches it
// through the perft driver (run_perft), which handles the root moves and depths 0-1 there.
#pragma once

#include <string>
#include <vector>

#include "common/uint128.hpp"
#include "perftkit/position.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/stats_totals.hpp"

namespace perftkit {

struct PipelineReport {
  u128 nodes = 0;
  std::vector<u128> divide;  // per root move, in root_moves(root) order, when asked for
  double seconds = 0;
  std::string system;  // "omp" or "cuda"
  PipelineCounters counters;
};

// The same with leaf statistics (perftkit/stats.hpp) in place of node counts.
struct PipelineStatsReport {
  StatsTotals stats;
  std::vector<StatsTotals> divide;  // per root move, in root_moves(root) order, when asked for
  double seconds = 0;
  std::string system;
  PipelineCounters counters;
};

// Exact perft of root to `depth` through the pipeline; with divide, also per root move.
// Waits for the GPU when the system is CUDA. Throws std::invalid_argument for a negative
// depth, std::runtime_error when the system is unavailable or a device fails, and
// std::overflow_error when a merged multiplicity would exceed 64 bits; never a partial count.
PipelineReport pipeline_perft(const Position& root, int depth, bool divide, const PipelineOptions& options);

// The statistics mode: the leaf statistics of root's tree of `depth` plies, equal to
// perft_stats() of the core (shortcuts on), with every level on the system. Identical
// positions merge only when their half-move clocks cannot make a difference to the 50- and
// 75-move counters. The same errors as pipeline_perft.
PipelineStatsReport pipeline_perft_stats(const Position& root, int depth, bool divide, const PipelineOptions& options);

}  // namespace perftkit
