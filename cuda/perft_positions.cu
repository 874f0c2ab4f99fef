// Perft of many positions on the GPU, one thread per position. Every kernel that runs the
// chess core lives in this translation unit, so one upload of its device tables serves all.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "cuda_check.hpp"
#include "device_memory.hpp"
#include "device_tables.cuh"
#include "for_each_index.cuh"
#include "perft_functor.hpp"

namespace perftkit::cuda {
namespace {

constexpr int PERFT_DEVICE = 0;
constexpr std::size_t BYTES_PER_POSITION = sizeof(Position) + sizeof(std::uint64_t);

// perft() recurses (perft<WHITE> and perft<BLACK> call each other), so ptxas cannot size
// the stack. It reports about 0.65 KiB per level on sm_90 (results/ptxas-sm90.txt); this
// bound leaves a wide margin. The default limit (1 KiB) is too small for depth 3.
constexpr std::size_t STACK_BYTES_PER_LEVEL = 1024;

// Device buffers kept between calls up to this size, so that the many small calls of a
// suite run do not pay for cudaMalloc/cudaFree (which synchronises) every time.
constexpr std::size_t RETAINED_WORKSPACE_BYTES = std::size_t(64) << 20;

// Buffers and stream of device 0, reused by successive calls (one call at a time).
struct Workspace {
  std::mutex mutex;
  std::optional<Stream> stream;
  DeviceBuffer<Position> positions;
  DeviceBuffer<std::uint64_t> nodes;

  std::size_t capacity() const { return std::min(positions.size(), nodes.size()); }
  void release() {
    positions = {};
    nodes = {};
  }
};

// Never destroyed: freeing device memory from a static destructor races the CUDA runtime's
// own teardown at exit; the process exit releases it.
Workspace& workspace() {
  static Workspace* const w = new Workspace;
  return *w;
}

// Raises the device's per-thread stack limit (never lowers it) so that a perft of `depth`
// fits. The runtime reserves the stack for every resident thread when the limit changes.
void ensure_stack_for_depth(int depth) {
  const std::size_t wanted = STACK_BYTES_PER_LEVEL * static_cast<std::size_t>(std::max(depth, 1) + 1);
  std::size_t current = 0;
  PERFTKIT_CUDA_CHECK(cudaDeviceGetLimit(&current, cudaLimitStackSize));
  if (current < wanted) PERFTKIT_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, wanted));
}

// Positions per batch: half of the memory that is free or already ours.
std::size_t batch_size_from_free_memory(std::size_t held_bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  PERFTKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return std::max<std::size_t>(1, (free_bytes + held_bytes) / 2 / BYTES_PER_POSITION);
}

// Makes the workspace hold at least `batch` positions; on out-of-memory halves the batch
// and retries. Returns the batch that fits (at least 1) or throws.
std::size_t reserve_batch(Workspace& ws, std::size_t batch) {
  if (ws.capacity() >= batch) return batch;
  ws.release();
  for (;;) {
    try {
      ws.positions = DeviceBuffer<Position>(batch);
      ws.nodes = DeviceBuffer<std::uint64_t>(batch);
      return batch;
    } catch (const CudaError& e) {
      ws.release();
      if (!e.out_of_memory() || batch == 1) throw;
      batch /= 2;
    }
  }
}

}  // namespace

std::vector<std::uint64_t> perft_positions(const std::vector<Position>& positions, int depth,
                                           std::size_t max_batch) {
  if (depth < 0 || depth > MAX_DEVICE_PERFT_DEPTH)
    throw std::invalid_argument("perft_positions: depth " + std::to_string(depth) + " is outside 0.." +
                                std::to_string(MAX_DEVICE_PERFT_DEPTH));
  if (device_count() <= PERFT_DEVICE) throw std::runtime_error("perft_positions: no CUDA device");

  const std::size_t n = positions.size();
  std::vector<std::uint64_t> nodes(n);
  if (n == 0) return nodes;

  Workspace& ws = workspace();
  const std::lock_guard lock(ws.mutex);
  const ScopedDevice scope(PERFT_DEVICE);
  ensure_device_tables(PERFT_DEVICE);
  ensure_stack_for_depth(depth);
  if (!ws.stream) ws.stream.emplace();
  const cudaStream_t stream = ws.stream->get();

  std::size_t batch = std::min(n, batch_size_from_free_memory(ws.capacity() * BYTES_PER_POSITION));
  if (max_batch) batch = std::min(batch, max_batch);
  batch = reserve_batch(ws, batch);

  for (std::size_t first = 0; first < n; first += batch) {
    const std::size_t count = std::min(batch, n - first);
    ws.positions.upload_async(positions.data() + first, count, stream);
    for_each_index_async(count, PerftFunctor{ws.positions.data(), ws.nodes.data(), depth}, stream);
    ws.nodes.download_async(nodes.data() + first, count, stream);
    ws.stream->synchronize();
  }

  if (ws.capacity() * BYTES_PER_POSITION > RETAINED_WORKSPACE_BYTES) ws.release();
  return nodes;
}

}  // namespace perftkit::cuda
