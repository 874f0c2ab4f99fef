// Long calls that Ctrl-C can stop. The work runs on a thread of its own, without the GIL and
// under a stop flag (common/cancellation.hpp), while the calling thread looks for Python
// signals every 50 ms. When a signal's handler raises (KeyboardInterrupt), the call sets the
// flag and raises at once: the work stops at its next work item, on its own thread, and frees
// what it holds then. So the work must own everything it touches (capture by value or by
// shared_ptr) and touch no Python object.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <thread>
#include <utility>

#include "common/cancellation.hpp"

namespace perftkit::python {

// Returns work()'s result, or rethrows its exception.
template <typename Work>
auto run_interruptibly(Work work) -> decltype(work()) {
  using Result = decltype(work());
  struct Job {
    explicit Job(Work w) : work(std::move(w)) {}
    Work work;
    StopFlag stop{false};
    std::promise<Result> done;
  };
  const auto job = std::make_shared<Job>(std::move(work));
  std::future<Result> result = job->done.get_future();
  std::thread worker([job] {
    const StopScope scope(&job->stop);
    try {
      job->done.set_value(job->work());
    } catch (...) {
      job->done.set_exception(std::current_exception());
    }
  });
  for (;;) {
    {
      nanobind::gil_scoped_release unlocked;
      if (result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      job->stop.store(true, std::memory_order_relaxed);
      worker.detach();
      throw nanobind::python_error();
    }
  }
  worker.join();
  return result.get();
}

}  // namespace perftkit::python
