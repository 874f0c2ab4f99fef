// Device queries: how many devices there are and what they are.
#include "common/cuda_devices.hpp"
#include "cuda_check.hpp"
#include "device_memory.hpp"

namespace perftkit::cuda {

bool built() noexcept { return true; }

int device_count() noexcept {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: not an error for the caller
    return 0;
  }
  return count;
}

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> result;
  const int count = device_count();
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    PERFTKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, i));
    DeviceInfo info{};
    info.index = i;
    info.name = prop.name;
    info.sm_count = prop.multiProcessorCount;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes remain.
    PERFTKIT_CUDA_CHECK(cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, i));
    PERFTKIT_CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, i));
    const ScopedDevice scope(i);
    PERFTKIT_CUDA_CHECK(cudaMemGetInfo(&info.free_memory, &info.total_memory));
    result.push_back(std::move(info));
  }
  return result;
}

}  // namespace perftkit::cuda
