#include "common/thread_count.hpp"

#include <algorithm>
#include <thread>

namespace perftkit {

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace perftkit
