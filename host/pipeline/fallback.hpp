// The pipeline's last resort: nodes no system could hold are counted by the recursive core
// on host threads, so running out of memory costs speed, never a count.
//
// Included by one translation unit per tally (fallback_nodes.cpp,
// fallback_stats.cpp): each instantiates its own recursion of the core.
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <type_traits>

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
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(span.count, 1)));
  std::atomic<std::size_t> next{0};
  std::vector<Total> totals(threads, Total{});
  auto worker = [&](unsigned id) {
    for (std::size_t i = next++; i < span.count; i = next++)
      add_subtree<Tally>(totals[id], frontier[span.first + i], remaining);
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (std::thread& t : pool) t.join();
  Total total{};
  for (const Total& t : totals) total += t;
  return total;
}

}  // namespace perftkit::pipeline
