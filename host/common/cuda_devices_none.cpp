// The CUDA backend's interface (common/cuda_devices.hpp) in a build without CUDA: no device.
#include "common/cuda_devices.hpp"

namespace perftkit::cuda {

bool built() noexcept { return false; }
int device_count() noexcept { return 0; }
std::vector<DeviceInfo> devices() { return {}; }

}  // namespace perftkit::cuda
