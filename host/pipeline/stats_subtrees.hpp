// The pipeline's table mode for statistics: as subtrees.hpp does for node counts, the levels
// compute the leaf statistics of every node's subtree (unweighted, 64-bit counters) instead
// of weighted leaf totals, so that each can be stored in the statistics table
// (stats_subtree_table.hpp, the CPU core's layout and keys) and found again by a later
// chunk, level or batch.
//
// A level of n nodes at `remaining` plies: every node is probed first (a hit has its
// statistics and no children); the misses are expanded in chunks, their children merged by
// exact position compare (and clock, where a leaf can see it: stats_clock_horizon) while
// each child slot keeps the index of its merged representative, the representatives are
// counted one level down, and each parent sums its own slots' statistics and stores the sum.
// Nodes two plies above the leaves are probed, and the misses counted by the core's two-ply
// count and stored, with no level below. Written once against a System; run on the OpenMP
// system (has_stats_table).
#pragma once

#include <thrust/logical.h>
#include <thrust/scan.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/cancellation.hpp"
#include "pipeline/levels.hpp"
#include "pipeline/stats_subtree_functors.hpp"
#include "pipeline/subtrees.hpp"

namespace perftkit::pipeline {

// What a child keeps while its chunk is alive: its position, the index of its merged
// representative, the representative's statistics and whether the table had them.
inline constexpr std::size_t STATS_SUBTREE_CHILD_BYTES =
    sizeof(Position) + sizeof(std::uint64_t) + sizeof(LeafStats) + 1;

// Whether a system runs the statistics' table mode (the OpenMP system; the GPU's is to come).
template <typename System>
constexpr bool has_stats_table() {
  if constexpr (requires { System::STATS_TABLE; }) return System::STATS_TABLE;
  else return false;
}

template <typename System>
class StatsSubtreePipeline {
 public:
  StatsSubtreePipeline(const System& system, Arena& arena, const PipelineOptions& options, StatsTableView table,
                       PipelineCounters& counters)
      : system_(system),
        arena_(arena),
        options_(options),
        table_(table),
        sort_keys_(options.key_seed),
        table_keys_(options.hash_seed),
        counters_(counters) {}

  // stats[i] = the leaf statistics of positions[i] below `remaining` (>= 1) plies for i < n
  // (arrays in the system's memory), through the table. Throws OutOfWorkspace when a single
  // position's children do not fit, std::overflow_error when a node count exceeds 64 bits.
  void count(const Position* positions, LeafStats* stats, std::uint64_t n, int remaining) {
    if (n == 0) return;
    const ArenaScope scope(arena_);
    std::uint8_t* known = nullptr;
    std::uint64_t misses = n;
    if (remaining >= 2) {
      known = arena_.push<std::uint8_t>(n);
      system_.for_each_index(n, ProbeStatsSubtrees{positions, stats, known, table_, table_keys_, remaining});
      const std::uint64_t hits = system_.run(arena_, n, [&](auto policy) {
        return std::uint64_t(thrust::count(policy, known, known + n, std::uint8_t(1)));
      });
      misses = n - hits;
      counters_.table_probes += n;
      counters_.table_hits += hits;
    }
    if (remaining <= 2) {
      if (misses)
        system_.for_each_index(n, CountStatsLeafMisses{positions, stats, known, table_, table_keys_, remaining});
      counters_.leaf_nodes += misses;
    } else {
      count_misses(positions, stats, known, n, remaining);
    }
    const bool saturated = system_.run(arena_, n, [&](auto policy) {
      return thrust::any_of(policy, thrust::counting_iterator<std::uint64_t>(0),
                            thrust::counting_iterator<std::uint64_t>(n), StatsSaturated{stats});
    });
    if (saturated) throw std::overflow_error("pipeline: a subtree's node count exceeds 64 bits");
  }

 private:
  // The misses' children in chunks, as SubtreePipeline::count_misses.
  void count_misses(const Position* positions, LeafStats* stats, const std::uint8_t* known, std::uint64_t n,
                    int remaining) {
    std::uint64_t* offsets = arena_.push<std::uint64_t>(n + 1);
    system_.for_each_index(n + 1, CountUnknownChildren{positions, known, offsets, n});
    system_.run(arena_, n, [&](auto policy) { thrust::exclusive_scan(policy, offsets, offsets + n + 1, offsets); });
    for (std::uint64_t first = 0; first < n;) {
      throw_if_stopped(current_stop_flag());  // a computation stopped from outside ends between chunks
      const std::uint64_t base = system_.read(offsets + first);
      const std::size_t scratch = std::max<std::size_t>(options_.merge ? MERGE_BYTES : 0, sizeof(std::uint64_t));
      const std::uint64_t room = pipeline::children_that_fit(arena_, STATS_SUBTREE_CHILD_BYTES + scratch);
      const std::uint64_t last =
          chunk_end(system_, arena_, offsets, first, n, base, chunk_cap(room, remaining - 1, options_));
      const std::uint64_t children = system_.read(offsets + last) - base;
      if (children > room) throw OutOfWorkspace{};
      expand(positions + first, stats + first, known + first, offsets + first, last - first, base, children, remaining);
      first = last;
    }
  }

  // Generates the children of parents_count parents, merges them, counts the
  // representatives one level down and sums each parent's slots into its statistics.
  void expand(const Position* parents, LeafStats* stats, const std::uint8_t* known, const std::uint64_t* offsets,
              std::uint64_t parents_count, std::uint64_t base, std::uint64_t children, int remaining) {
    const ArenaScope scope(arena_);
    Position* positions = arena_.push<Position>(children);
    std::uint64_t* representative = arena_.push<std::uint64_t>(children);
    LeafStats* child_stats = nullptr;
    if (children) {
      system_.for_each_index(parents_count, GenerateChildren{parents, nullptr, offsets, base, positions, nullptr});
      ++counters_.chunks;
      counters_.generated += children;
      const std::uint64_t unique =
          merge_to_representatives(system_, arena_, options_, sort_keys_, stats_clock_horizon(remaining - 1), positions,
                                   representative, children, counters_);
      child_stats = arena_.push<LeafStats>(unique);
      count(positions, child_stats, unique, remaining - 1);
    }
    system_.for_each_index(parents_count, SumChildStats{parents, known, offsets, base, representative, child_stats,
                                                        stats, table_, table_keys_, remaining});
  }

  const System& system_;
  Arena& arena_;
  const PipelineOptions& options_;
  const StatsTableView table_;
  const KeySet sort_keys_;
  const KeySet table_keys_;
  PipelineCounters& counters_;
};

// Copies frontier[span] into the arena, counts every node's statistics through the table and
// returns the sum of multiplicity x statistics, exact in 128 bits. The errors of upload_span
// and StatsSubtreePipeline::count.
template <typename System>
StatsTotals count_span_stats_subtrees(const System& system, Arena& arena, StatsTableView table,
                                      const std::vector<FrontierNode>& frontier, std::size_t first, std::size_t count,
                                      int remaining, const PipelineOptions& options, PipelineCounters& counters) {
  const ArenaScope scope(arena);
  const SpanNodes nodes = upload_span(system, arena, frontier, first, count);
  LeafStats* stats = arena.push<LeafStats>(count);
  StatsSubtreePipeline<System> levels(system, arena, options, table, counters);
  levels.count(nodes.positions, stats, count, remaining);
  return weighted_stats_sum(system, arena, count, nodes.multiplicities, stats);
}

}  // namespace perftkit::pipeline
