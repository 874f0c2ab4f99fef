// How each tally of backend.hpp counts the pipeline's last plies on a system, and
// what merging must compare for it. Node counts depend on the move tree below a position
// alone; the leaf statistics also on its half-move clock (the 50- and 75-move counters), so
// with statistics positions merge only when their clocks agree where a leaf could see them.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cstdint>

#include "pipeline/arena.hpp"
#include "pipeline/backend.hpp"
#include "pipeline/chunks.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/slot_functors.hpp"
#include "pipeline/sum128.hpp"

namespace perftkit::pipeline {

template <typename Tally>
struct LeafTally;

// multiplicity x value summed over [0, n) on the system, exact in 128 bits.
template <typename System, typename Weighted>
u128 weighted_sum(const System& system, Arena& arena, std::uint64_t n, Weighted weighted) {
  const Sum128 sum = system.run(arena, n, [&](auto policy) {
    return thrust::transform_reduce(policy, thrust::counting_iterator<std::uint64_t>(0),
                                    thrust::counting_iterator<std::uint64_t>(n), weighted, Sum128{0, 0}, Sum128Plus{});
  });
  return sum.value();
}

// multiplicity x statistics summed over [0, n) on the system, each counter exact in 128 bits.
template <typename System, typename Stats>
StatsTotals weighted_stats_sum(const System& system, Arena& arena, std::uint64_t n, const std::uint64_t* multiplicities,
                               const Stats* stats) {
  const StatsSum128 sum = system.run(arena, n, [&](auto policy) {
    return thrust::transform_reduce(policy, thrust::counting_iterator<std::uint64_t>(0),
                                    thrust::counting_iterator<std::uint64_t>(n),
                                    WeightedStats<Stats>{multiplicities, stats}, StatsSum128{}, StatsSum128Plus{});
  });
  StatsTotals totals;
  for (int f = 0; f < STAT_FIELD_NB; ++f) totals.count[f] = sum.count[f].value();
  return totals;
}

template <>
struct LeafTally<CountNodes> {
  static constexpr std::size_t LEAF_BYTES = sizeof(std::uint64_t);  // a node's count at the last level

  static ClockHorizon clock_horizon(int) { return CLOCK_NEVER_COUNTS; }

  // Sum of multiplicities[i] x perft(positions[i], remaining <= 2); buffers from the arena.
  template <typename System>
  static u128 count(const System& system, Arena& arena, const Position* positions, const std::uint64_t* multiplicities,
                    std::uint64_t n, int remaining, const PipelineOptions&, PipelineCounters&) {
    std::uint64_t* counts = arena.push<std::uint64_t>(n);
    system.for_each_index(n, LeafCount{positions, counts, remaining});
    return weighted_sum(system, arena, n, WeightedCount{multiplicities, counts});
  }
};

// What a child slot of the statistics' last two plies keeps: its move, its parent's index
// and its last ply's packed counters.
inline constexpr std::size_t SLOT_PLY_BYTES = sizeof(Move) + sizeof(std::uint64_t) + sizeof(PlyStats);
// The most slots counted at once (54 MiB of them): a GPU's worth many times over. They take
// what the level above left free (its slack), not a share of every node's bytes.
inline constexpr std::uint64_t MAX_SLOTS_PER_CHUNK = std::uint64_t(1) << 20;

// Whether a system counts the statistics' last two plies over child slots, a thread per
// (node, move) (a GPU: SlotPlyStats fits 128 registers where two plies in one thread did
// not), or a thread per node (the host: the core's two-ply walk, with no slots to write and
// sum, took 0.42 s where the slots took 0.55 s for Kiwipete perft 5 on one core).
template <typename System>
constexpr bool balances_last_plies() {
  if constexpr (requires { System::BALANCES_LAST_PLIES; }) return System::BALANCES_LAST_PLIES;
  else return false;
}

template <>
struct LeafTally<CountStats> {
  // A node's counters at the last level, and its offset when its moves become child slots.
  static constexpr std::size_t LEAF_BYTES = sizeof(ShallowStats) + sizeof(std::uint64_t);

  static ClockHorizon clock_horizon(int remaining) { return stats_clock_horizon(remaining); }

  // Sum of multiplicities[i] x the leaf statistics of positions[i] below remaining (1..2)
  // plies, every counter in one reduction pass. Throws OutOfWorkspace when one node's child
  // slots do not fit; options.max_chunk_nodes caps a chunk's slots.
  template <typename System>
  static StatsTotals count(const System& system, Arena& arena, const Position* positions,
                           const std::uint64_t* multiplicities, std::uint64_t n, int remaining,
                           const PipelineOptions& options, PipelineCounters& counters) {
    ShallowStats* stats = arena.push<ShallowStats>(n);
    if constexpr (balances_last_plies<System>()) {
      if (remaining == 2) count_two_plies(system, arena, positions, n, stats, options, counters);
      else system.for_each_index(n, LastPlyStats{positions, stats});
    } else {
      system.for_each_index(n, LeafStatsCount{positions, stats, remaining});
    }
    return weighted_stats_sum(system, arena, n, multiplicities, stats);
  }

 private:
  // stats[i] = the statistics two plies below positions[i], balanced over (node, move): each
  // node's moves are listed into child slots, a thread per slot plays its move and counts the
  // last ply below it (SlotPlyStats, the kernel that fits an SM), and each node sums its
  // slots. In chunks of the slots the arena holds.
  template <typename System>
  static void count_two_plies(const System& system, Arena& arena, const Position* positions, std::uint64_t n,
                              ShallowStats* stats, const PipelineOptions& options, PipelineCounters& counters) {
    const ArenaScope scope(arena);
    std::uint64_t* offsets = arena.push<std::uint64_t>(n + 1);
    system.for_each_index(n + 1, CountChildren{positions, offsets, n});
    system.run(arena, n, [&](auto policy) { thrust::exclusive_scan(policy, offsets, offsets + n + 1, offsets); });
    for (std::uint64_t first = 0; first < n;) {
      const std::uint64_t base = system.read(offsets + first);
      const std::uint64_t room = children_that_fit(arena, SLOT_PLY_BYTES);
      std::uint64_t cap = std::min(room, MAX_SLOTS_PER_CHUNK);
      if (options.max_chunk_nodes) cap = std::min<std::uint64_t>(cap, options.max_chunk_nodes);
      const std::uint64_t last = chunk_end(system, arena, offsets, first, n, base, cap);
      const std::uint64_t slots = system.read(offsets + last) - base;
      if (slots > room) throw OutOfWorkspace{};
      const ArenaScope chunk(arena);
      Move* moves = arena.push<Move>(slots);
      std::uint64_t* parent_of = arena.push<std::uint64_t>(slots);
      PlyStats* ply_stats = arena.push<PlyStats>(slots);
      if (slots) {
        system.for_each_index(last - first, ListSlotMoves{positions + first, offsets + first, base, moves, parent_of});
        system.for_each_index(slots, SlotPlyStats{positions + first, moves, parent_of, ply_stats});
        ++counters.slot_chunks;
      }
      system.for_each_index(last - first, SumSlotPlyStats{offsets + first, base, ply_stats, stats + first});
      first = last;
    }
  }
};

}  // namespace perftkit::pipeline
