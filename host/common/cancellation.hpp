// Stopping a long computation from outside it. Whoever starts one (the Python module, which
// must return within a second of Ctrl-C) runs it under a StopScope of a flag it owns;
// parallel_for, which hands out every batch of CPU work, checks that flag before each item and
// throws Cancelled. The CLI needs none of this: a signal ends its process.
#pragma once

#include <atomic>
#include <stdexcept>

namespace perftkit {

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

// Set once, to stop the computations that run under it.
using StopFlag = std::atomic<bool>;

namespace detail {
inline thread_local const StopFlag* stop_flag_of_this_thread = nullptr;
}

// The flag the computation on this thread runs under, or null.
inline const StopFlag* current_stop_flag() { return detail::stop_flag_of_this_thread; }

// Throws Cancelled when flag (which may be null) is set: called between work items.
inline void throw_if_stopped(const StopFlag* flag) {
  if (flag && flag->load(std::memory_order_relaxed)) throw Cancelled();
}

// While it lives, the work on this thread runs under flag (which may be null); flag must
// outlive it.
class StopScope {
 public:
  explicit StopScope(const StopFlag* flag) : outer_(detail::stop_flag_of_this_thread) {
    detail::stop_flag_of_this_thread = flag;
  }
  ~StopScope() { detail::stop_flag_of_this_thread = outer_; }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  const StopFlag* outer_;
};

}  // namespace perftkit
