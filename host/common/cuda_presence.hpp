// Whether this build can run on a CUDA device now: built with CUDA and a device is visible.
// Host-safe: the one place that asks, for drivers, commands and tests alike.
#pragma once

#ifdef PERFTKIT_HAVE_CUDA
#include "common/cuda_devices.hpp"
#endif

namespace perftkit {

inline bool cuda_device_present() noexcept {
#ifdef PERFTKIT_HAVE_CUDA
  return cuda::device_count() > 0;
#else
  return false;
#endif
}

}  // namespace perftkit
