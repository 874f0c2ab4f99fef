// How each tally of backend.hpp counts the pipeline's last plies on a system, and
// what merging must compare for it. Node counts depend on the move tree below a position
// alone; the leaf statistics also on its half-move clock (the 50- and 75-move counters), so
// with statistics positions merge only when their clocks agree where a leaf could see them.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <cstdint>

#include "pipeline/arena.hpp"
#include "pipeline/backend.hpp"
#include "pipeline/functors.hpp"
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

template <>
struct LeafTally<CountNodes> {
  static constexpr std::size_t LEAF_BYTES = sizeof(std::uint64_t);  // a node's count at the last level

  static ClockHorizon clock_horizon(int) { return CLOCK_NEVER_COUNTS; }

  // Sum of multiplicities[i] x perft(positions[i], remaining <= 2); buffers from the arena.
  template <typename System>
  static u128 count(const System& system, Arena& arena, const Position* positions, const std::uint64_t* multiplicities,
                    std::uint64_t n, int remaining) {
    std::uint64_t* counts = arena.push<std::uint64_t>(n);
    system.for_each_index(n, LeafCount{positions, counts, remaining});
    return weighted_sum(system, arena, n, WeightedCount{multiplicities, counts});
  }
};

template <>
struct LeafTally<CountStats> {
  static constexpr std::size_t LEAF_BYTES = sizeof(LeafStats);  // a node's counters at the last level

  static ClockHorizon clock_horizon(int remaining) { return stats_clock_horizon(remaining); }

  // Sum of multiplicities[i] x the leaf statistics of positions[i] below remaining (1..2)
  // plies, every counter in one reduction pass.
  template <typename System>
  static StatsTotals count(const System& system, Arena& arena, const Position* positions,
                           const std::uint64_t* multiplicities, std::uint64_t n, int remaining) {
    LeafStats* stats = arena.push<LeafStats>(n);
    system.for_each_index(n, LeafStatsCount{positions, stats, remaining});
    const StatsSum128 sum = system.run(arena, n, [&](auto policy) {
      return thrust::transform_reduce(policy, thrust::counting_iterator<std::uint64_t>(0),
                                      thrust::counting_iterator<std::uint64_t>(n), WeightedStats{multiplicities, stats},
                                      StatsSum128{}, StatsSum128Plus{});
    });
    StatsTotals totals;
    for (int f = 0; f < STAT_FIELD_NB; ++f) totals.count[f] = sum.count[f].value();
    return totals;
  }
};

}  // namespace perftkit::pipeline
