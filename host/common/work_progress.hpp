// Units of a long computation done so far, shared by the threads that do them and a thread
// that reports them (a progress line): lock-free counters, nothing else.
#pragma once

#include <atomic>
#include <cstdint>

namespace perftkit {

struct WorkProgress {
  std::atomic<std::uint64_t> done{0};   // units finished
  std::atomic<std::uint64_t> total{0};  // units known so far (a run may add more)
};

}  // namespace perftkit
