// The pipeline's last resort: nodes no system could hold are counted by the recursive core
// on host threads, so running out of memory costs speed, never a count.
#include <algorithm>
#include <atomic>
#include <thread>

#include "perftkit/perft.hpp"
#include "pipeline_backend.hpp"

namespace perftkit::pipeline {

u128 count_span_cpu(const std::vector<FrontierNode>& frontier, BatchSpan span, int remaining, unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(span.count, 1)));
  std::atomic<std::size_t> next{0};
  std::vector<u128> totals(threads, 0);
  auto worker = [&](unsigned id) {
    for (std::size_t i = next++; i < span.count; i = next++) {
      const FrontierNode& node = frontier[span.first + i];
      totals[id] += u128(perft(node.position, remaining)) * node.multiplicity;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (std::thread& t : pool) t.join();
  u128 total = 0;
  for (u128 t : totals) total += t;
  return total;
}

}  // namespace perftkit::pipeline
