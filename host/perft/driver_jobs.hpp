// The perft driver's pieces shared by its backends (driver.cpp, driver_cpu.cpp,
// driver_cpu_stats.cpp): a frontier job, how it is deepened, and the CPU threads'
// loop. The CPU recursions are instantiated in translation units of their own, so that the
// cores build them in parallel.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "pipeline/frontier.hpp"
#include "perft/driver.hpp"
#include "perft/table.hpp"
#include "pipeline/stats_totals.hpp"
#include "common/uint128.hpp"
#include "common/parallel_for.hpp"

namespace perftkit::driver {

// Subtree totals per root move, exact.
using RootTotals = std::vector<u128>;

// Frontier size worth merging towards: identical positions are counted once, so a deeper
// merged frontier saves work; the expansion itself costs about 0.1 us per child.
constexpr std::size_t MERGED_FRONTIER_TARGET = std::size_t(1) << 18;

// Deepest subtree one work unit counts in 64 bits: no position has more than 218 legal
// moves, and 218^8 < 2^64, so no unit can overflow.
constexpr int MAX_UNIT_DEPTH = 8;

// Frontier nodes `remaining` plies above the leaves: the part of a perft still to count.
struct FrontierJob {
  std::vector<FrontierNode> nodes;
  int remaining;
  bool keep_root_moves;
  bool merge;
};

// Deepens job one ply at a time (on `threads` threads) while it has fewer than target_units
// nodes or a unit would count more than max_unit_depth plies, and more than min_remaining
// plies stay below it.
inline void deepen(FrontierJob& job, std::size_t target_units, int min_remaining, unsigned threads,
                   int max_unit_depth = MAX_UNIT_DEPTH) {
  while ((job.nodes.size() < target_units || job.remaining > max_unit_depth) && job.remaining > min_remaining) {
    job.nodes = expand_level(job.nodes, job.keep_root_moves, job.merge, threads);
    --job.remaining;
  }
}

// The whole tree of req: every position one ply below the root.
inline FrontierJob root_job(const PerftRequest& req) {
  return {expand_frontier(req.root, 1, req.divide, req.merge_transpositions), req.depth - 1, req.divide,
          req.merge_transpositions};
}

// Units for the CPU threads: many per thread and, when merging without a table, enough to
// find transpositions (a table merges the subtrees below the frontier: keep it shallow).
inline std::size_t cpu_units(const PerftRequest& req, unsigned threads) {
  const std::size_t units = std::size_t(threads) * 64;
  return req.merge_transpositions && !req.hash_bytes ? std::max(units, MERGED_FRONTIER_TARGET) : units;
}

// CPU backend: worker threads pull frontier nodes one at a time; count_unit(node, totals)
// adds a node's subtree, times its multiplicity, to totals[node.root_move]. Per-thread
// totals are summed at the end, so every total is exact whatever the thread count. Each node
// is a unit of progress, when there is one to tell.
template <typename Total, typename CountUnit>
std::vector<Total> count_frontier(const std::vector<FrontierNode>& frontier, unsigned threads,
                                  std::size_t root_move_count, CountUnit count_unit, WorkProgress* progress = nullptr) {
  std::vector<std::vector<Total>> per_thread(threads, std::vector<Total>(root_move_count, Total{}));
  if (progress) progress->total += frontier.size();
  parallel_for(frontier.size(), threads, [&](unsigned worker, std::size_t i) {
    count_unit(frontier[i], per_thread[worker]);
    if (progress) progress->done.fetch_add(1, std::memory_order_relaxed);
  });

  std::vector<Total> totals(root_move_count, Total{});
  for (const std::vector<Total>& t : per_thread)
    for (std::size_t m = 0; m < root_move_count; ++m) totals[m] += t[m];
  return totals;
}

inline unsigned thread_count(const PerftRequest& req) { return threads_or_all_cores(req.threads); }

// The CPU backend: the job deepened into units for the threads, each unit counted by the
// recursive core, through `table` (made on first use) when the request has a hash size.
RootTotals count_cpu(FrontierJob job, const PerftRequest& req, std::unique_ptr<PerftTable>& table,
                     std::size_t root_move_count);

// Statistics per root move on the CPU core: at depth 1 each root move is its own leaf. With
// req.hash_bytes, through a statistics table of that size, whose use is written to use.
std::vector<StatsTotals> root_move_stats(const PerftRequest& req, const std::vector<Move>& moves, StatsTableUse& use);

// The statistics of a job's nodes (root moves ignored) on the CPU core, through `table`
// (made on first use, kept by the caller) when req has a hash size.
StatsTotals count_stats_cpu(FrontierJob job, const PerftRequest& req, std::unique_ptr<StatsTable>& table);

}  // namespace perftkit::driver
