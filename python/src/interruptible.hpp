// Long calls that Ctrl-C can stop: the work runs on a thread of its own without the GIL while
// the calling thread looks for Python signals every 50 ms. On a signal whose handler raises
// (KeyboardInterrupt), it requests a stop (common/cancellation.hpp), waits for the work to
// end at its next work item, and raises that exception.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <future>
#include <utility>

#include "common/cancellation.hpp"

namespace perftkit::python {

// Returns work()'s result, or rethrows its exception. work must not touch Python objects.
template <typename Work>
auto run_interruptibly(Work&& work) -> decltype(work()) {
  auto result = std::async(std::launch::async, std::forward<Work>(work));
  for (;;) {
    {
      nanobind::gil_scoped_release unlocked;
      if (result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      request_stop();
      {
        nanobind::gil_scoped_release unlocked;
        result.wait();
      }
      clear_stop_request();
      throw nanobind::python_error();
    }
  }
  return result.get();
}

}  // namespace perftkit::python
