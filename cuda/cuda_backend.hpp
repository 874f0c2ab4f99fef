// The CUDA backend's public interface. Host-safe: no CUDA syntax and no CUDA headers, so
// g++-compiled code in host/ and tests/ includes it directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace perftkit {
// Declared only: the device queries' translation unit stays free of the core (and of its
// per-TU device tables); callers of perft_positions() include perftkit/position.hpp.
struct Position;
}  // namespace perftkit

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

/// Number of usable CUDA devices; 0 when there is no driver or no device. Never throws.
int device_count() noexcept;

/// Every device, in CUDA's order; empty without a device. Creates a context on each device
/// (free memory needs one). Throws std::runtime_error when a query fails.
std::vector<DeviceInfo> devices();

/// Deepest depth perft_positions() accepts (one thread runs a whole subtree of this depth).
inline constexpr int MAX_DEVICE_PERFT_DEPTH = 3;

/// perft(p, depth) for every p in positions, in order, computed on device 0 with one thread
/// per position; waits for the GPU. depth is 0..MAX_DEVICE_PERFT_DEPTH. Positions go to the
/// device in batches sized from its free memory (max_batch > 0 caps a batch, for tests);
/// when an allocation fails the batch is halved and retried, so a result is complete or an
/// exception is thrown: std::invalid_argument for a bad depth, std::runtime_error for no
/// device or a CUDA failure. Safe to call from several host threads (calls take turns).
std::vector<std::uint64_t> perft_positions(const std::vector<Position>& positions, int depth,
                                           std::size_t max_batch = 0);

}  // namespace perftkit::cuda
