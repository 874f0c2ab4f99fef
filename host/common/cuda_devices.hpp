// The CUDA backend's public interface. Host-safe: no CUDA syntax and no CUDA headers, so
// g++-compiled code in host/ and tests/ includes it directly. One implementation a build:
// cuda/device_info.cu with CUDA, host/common/cuda_devices_none.cpp without (no device).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace perftkit::cuda {

/// One CUDA device as the runtime reports it.
struct DeviceInfo {
  int index;
  std::string name;
  int sm_count;
  std::size_t total_memory, free_memory;  ///< bytes; free memory as seen when queried
  int cc_major, cc_minor;                 ///< compute capability
  int clock_khz;                          ///< peak SM clock
  int memory_clock_khz;                   ///< peak memory clock
};

/// Whether this build has the CUDA backend (a device may still be missing).
bool built() noexcept;

/// Number of usable CUDA devices; 0 when there is no driver or no device. Never throws.
int device_count() noexcept;

/// Every device, in CUDA's order; empty without a device. Creates a context on each device
/// (free memory needs one). Throws std::runtime_error when a query fails.
std::vector<DeviceInfo> devices();

}  // namespace perftkit::cuda
