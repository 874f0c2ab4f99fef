// Whether this build can run on a CUDA device now: built with CUDA and a device is visible.
// Host-safe: the one place that asks, for drivers, commands and tests alike.
#pragma once

#include "common/cuda_devices.hpp"

namespace perftkit {

inline bool cuda_device_present() noexcept { return cuda::device_count() > 0; }

}  // namespace perftkit
