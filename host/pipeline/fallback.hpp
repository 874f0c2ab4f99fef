// The pipeline's last resort: nodes no system could hold are counted by the recursive core
// on host threads, so running out of memory costs speed, never a count.
//
// Included by one translation unit per tally (fallback_nodes.cpp,
// fallback_stats.cpp): each instantiates its own recursion of the core.
#pragma once

#include <algorithm>
#include <type_traits>

#include "common/parallel_for.hpp"
#include "common/thread_count.hpp"
#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/backend.hpp"

namespace perftkit::pipeline {

// Adds multiplicity x the node's subtree below `remaining` plies (perft, or its statistics).
template <typename Tally>
void add_subtree(typename Tally::Total& total, const FrontierNode& node, int remaining) {
  if constexpr (std::is_same_v<Tally, CountNodes>) {
    total += u128(perft(node.position, remaining)) * node.multiplicity;
  } else {
    LeafStats unit{};
    perft_stats(node.position, remaining, unit);
    total.add(unit, node.multiplicity);
  }
}

template <typename Tally>
typename Tally::Total count_span_cpu(const std::vector<FrontierNode>& frontier, BatchSpan span, int remaining,
                                     unsigned threads) {
  using Total = typename Tally::Total;
  threads = threads_or_all_cores(threads);
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(span.count, 1)));
  std::vector<Total> totals(threads, Total{});
  parallel_for(span.count, threads, [&](unsigned worker, std::size_t i) {
    add_subtree<Tally>(totals[worker], frontier[span.first + i], remaining);
  });
  Total total{};
  for (const Total& t : totals) total += t;
  return total;
}

}  // namespace perftkit::pipeline
