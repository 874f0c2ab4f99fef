// The frontier pipeline on CUDA devices. Host-safe: no CUDA syntax, no Thrust.
#pragma once

#include <memory>
#include <vector>

#include "pipeline/backend.hpp"

namespace perftkit::cuda {

/// What the GPUs keep from one count of node counts to the next in one process: per device a
/// stream, the transposition table (so transpositions carry from shard to shard, as the CPU
/// core's table does) and the level buffers. Made empty; filled by the first count that is
/// given it (PipelineOptions::cuda_session), rebuilt for a device when a count's table
/// settings differ, dropped after a failed count. Outlives no CUDA context: its owner (one
/// FrontierCounter) goes before the process ends.
class CudaSession {
 public:
  CudaSession();
  ~CudaSession();
  CudaSession(const CudaSession&) = delete;
  CudaSession& operator=(const CudaSession&) = delete;

  struct Devices;  // defined by the CUDA unit
  std::unique_ptr<Devices> devices;
};

/// Counts every batch of the host frontier below `remaining` plies on the visible CUDA devices
/// (at most options.max_devices): one host thread per device takes batches from a shared
/// atomic counter, uploads the device tables once per device, and runs the pipeline's level
/// templates with the CUDA policy in level buffers sized from the device's free memory (or
/// options.memory_budget). What a device cannot hold comes back as leftovers. Waits for every
/// device. Throws std::runtime_error without a device and CudaError for a CUDA failure.
/// Instantiated for pipeline::CountNodes and pipeline::CountStats.
template <typename Tally>
pipeline::BatchResults<Tally> count_batches_pipeline(const std::vector<FrontierNode>& frontier,
                                                     const std::vector<pipeline::BatchSpan>& batches, int remaining,
                                                     const PipelineOptions& options);

}  // namespace perftkit::cuda
