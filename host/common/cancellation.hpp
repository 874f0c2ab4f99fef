// Stopping a long computation from outside it. The Python module requests a stop when Ctrl-C
// arrives (the CLI needs none of this: a signal ends its process); parallel_for, which hands
// out every batch of CPU work, checks before each item and throws Cancelled. One flag for the
// process: a stop ends every computation running at that moment.
#pragma once

#include <atomic>
#include <stdexcept>

namespace perftkit {

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

namespace detail {
inline std::atomic<bool> stop_requested{false};
}

inline void request_stop() { detail::stop_requested.store(true, std::memory_order_relaxed); }
inline void clear_stop_request() { detail::stop_requested.store(false, std::memory_order_relaxed); }
inline bool stop_was_requested() { return detail::stop_requested.load(std::memory_order_relaxed); }

// Throws Cancelled when a stop was requested: called between work items.
inline void throw_if_stop_requested() {
  if (stop_was_requested()) throw Cancelled();
}

}  // namespace perftkit
