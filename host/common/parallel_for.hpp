// The one way perftkit runs a batch of work on all cores: items handed out one at a time to
// a few threads. (classify's reader/worker/writer queue and the one host thread per GPU are
// different jobs and keep their own threads.)
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/cancellation.hpp"

namespace perftkit {

// Calls work(worker, item) once for every item in [0, item_count), on up to `threads` threads,
// the caller's among them; worker (0 to threads - 1) names the thread, for per-thread totals.
// A thread takes the next item when it finishes one, so uneven items balance. Returns when
// every call has returned; the first exception a call throws stops the handing out of items
// and is rethrown here. A stop request (common/cancellation.hpp) throws Cancelled before the
// next item.
template <typename Work>
void parallel_for(std::size_t item_count, unsigned threads, Work&& work) {
  const unsigned workers = unsigned(std::clamp<std::size_t>(item_count, 1, std::max(threads, 1u)));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto run = [&](unsigned worker) {
    try {
      for (std::size_t item = next++; item < item_count; item = next++) {
        throw_if_stop_requested();
        work(worker, item);
      }
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = item_count;
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(workers - 1);
  for (unsigned worker = 1; worker < workers; ++worker) pool.emplace_back(run, worker);
  run(0);
  pool.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace perftkit
