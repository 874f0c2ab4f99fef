#include "common/system_memory.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include "common/cuda_devices.hpp"

namespace perftkit {

std::size_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::size_t value = 0;
  while (meminfo >> key >> value >> unit)
    if (key == "MemAvailable:") return value * 1024;
  return 0;
}

std::size_t default_hash_bytes() {
  constexpr std::size_t MIB = std::size_t(1) << 20;
  return std::clamp(available_memory_bytes() / 4, 64 * MIB, 16384 * MIB);
}

std::size_t default_device_hash_bytes() {
  constexpr std::size_t MIB = std::size_t(1) << 20;
  if (cuda::device_count() == 0) return 0;
  std::size_t least = ~std::size_t(0);
  for (const cuda::DeviceInfo& d : cuda::devices()) least = std::min(least, d.free_memory);
  return std::max(least / 4, 64 * MIB);
}

}  // namespace perftkit
