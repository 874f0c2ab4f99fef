// Runs a host+device callable over an index range on the GPU: a thin __global__ wrapper
// with a grid-stride loop and 64-bit indices, and its checked launcher.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cuda_check.hpp"

namespace perftkit::cuda {

inline constexpr int FOR_EACH_BLOCK_SIZE = 256;

// Blocks of FOR_EACH_BLOCK_SIZE threads an SM must hold at once, which caps a thread's
// registers at 65,536 / (256 x blocks): 2 (128 registers) unless the functor names another
// number as MIN_BLOCKS_PER_SM. Without a cap ptxas chose 80 registers for the leaf counts
// and spilled 40 bytes; with it, 108 and none (results/kernel-sizes.md).
template <typename F>
constexpr int min_blocks_per_sm() {
  if constexpr (requires { F::MIN_BLOCKS_PER_SM; }) return F::MIN_BLOCKS_PER_SM;
  else return 2;
}

// Calls f(i) for every i in [0, n).
template <typename F>
__global__ void __launch_bounds__(FOR_EACH_BLOCK_SIZE, min_blocks_per_sm<F>())
    for_each_index_kernel(std::uint64_t n, F f) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}

// Queues f(i) for i in [0, n) on stream of the current device with a grid no larger than
// the device holds at once. Does not wait for the GPU; checks the launch itself.
template <typename F>
void for_each_index_async(std::uint64_t n, F f, cudaStream_t stream) {
  if (n == 0) return;
  int device = 0, sm_count = 0, blocks_per_sm = 0;
  PERFTKIT_CUDA_CHECK(cudaGetDevice(&device));
  PERFTKIT_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  PERFTKIT_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, for_each_index_kernel<F>, FOR_EACH_BLOCK_SIZE, 0));
  const std::uint64_t needed = (n + FOR_EACH_BLOCK_SIZE - 1) / FOR_EACH_BLOCK_SIZE;
  const std::uint64_t resident = std::uint64_t(std::max(1, sm_count)) * std::uint64_t(std::max(1, blocks_per_sm));
  const auto blocks = static_cast<unsigned>(std::min(needed, resident));
  for_each_index_kernel<F><<<blocks, FOR_EACH_BLOCK_SIZE, 0, stream>>>(n, f);
  PERFTKIT_CUDA_CHECK(cudaGetLastError());
}

// As for_each_index_async, then waits for the stream and throws any error of the kernel.
template <typename F>
void for_each_index(std::uint64_t n, F f, cudaStream_t stream) {
  for_each_index_async(n, f, stream);
  PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace perftkit::cuda
