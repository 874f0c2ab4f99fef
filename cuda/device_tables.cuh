// Fills this translation unit's copy of the core's device attack tables
// (perftkit::detail::device_attack_tables, one `static __device__` object per CUDA TU).
// Every .cu that launches kernels using the core includes this header and calls
// ensure_device_tables(device) before its first launch on that device. No kernel may be
// compiled into two such units: the CUDA runtime runs it from one of them, with that unit's
// tables, which the other unit's upload never filled (pipeline_cuda.cu; the test
// cuda_kernels_in_one_object).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "cuda_check.hpp"
#include "perftkit/attacks.hpp"

namespace perftkit::cuda {
namespace {  // internal linkage: the symbol and the bookkeeping are per TU, like the tables

// Uploads the magic-indexed tables to `device` once per process; later calls return at
// once. Makes `device` current for the calling thread. Waits for the copy.
void ensure_device_tables(int device) {
  static std::mutex mutex;
  static std::vector<bool> uploaded;
  const std::lock_guard lock(mutex);
  if (device < 0) throw std::invalid_argument("ensure_device_tables: negative device index");
  if (static_cast<std::size_t>(device) >= uploaded.size()) uploaded.resize(static_cast<std::size_t>(device) + 1);
  if (uploaded[static_cast<std::size_t>(device)]) return;

  // The device never uses PEXT: the slider tables must be in magic-product order.
  const auto tables = std::make_unique<AttackTables>();
  build_attack_tables(*tables, /*use_pext=*/false);
  PERFTKIT_CUDA_CHECK(cudaSetDevice(device));
  PERFTKIT_CUDA_CHECK(cudaMemcpyToSymbol(perftkit::detail::device_attack_tables, tables.get(), sizeof(AttackTables)));
  PERFTKIT_CUDA_CHECK(cudaDeviceSynchronize());
  uploaded[static_cast<std::size_t>(device)] = true;
}

}  // namespace
}  // namespace perftkit::cuda
