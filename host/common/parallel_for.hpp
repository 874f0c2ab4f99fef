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
// and is rethrown here. When the caller runs under a stop flag (common/cancellation.hpp), each
// thread checks it before taking an item, and a set flag throws Cancelled; the items run
// under the same flag, so that a parallel_for within one stops too.
template <typename Work>
void parallel_for(std::size_t item_count, unsigned threads, Work&& work) {
  const unsigned workers = unsigned(std::clamp<std::size_t>(item_count, 1, std::max(threads, 1u)));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const StopFlag* const stop = current_stop_flag();
  const auto run = [&](unsigned worker) {
    const StopScope scope(stop);
    try {
      for (std::size_t item = next++; item < item_count; item = next++) {
        throw_if_stopped(stop);
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
