// What the operating system says about memory, for sizing tables.
#pragma once

#include <cstddef>

namespace perftkit {

// Bytes of memory available to new allocations (MemAvailable), or 0 when unknown.
std::size_t available_memory_bytes();

// The default transposition table size: a quarter of available memory, at most 16 GiB,
// at least 64 MiB.
std::size_t default_hash_bytes();

// The default transposition table size per CUDA device for the pipeline: a quarter of the
// free memory of the device with the least (the level buffers get most of the rest), at
// least 64 MiB; 0 without a device or a CUDA build.
std::size_t default_device_hash_bytes();

}  // namespace perftkit
