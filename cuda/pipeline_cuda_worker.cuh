// The frontier pipeline on every visible GPU: the level templates of host/pipeline/levels.hpp
// with Thrust's CUDA policy, the heavy per-node bodies through the thin for_each_index
// kernel, one host thread per device pulling batches from a shared counter.
//
// Included by pipeline_cuda.cu alone: both tallies' kernels must live in one CUDA object
// (that file says why). Everything but count_batches_pipeline has internal linkage; the unit
// has its own copy of the device tables (device_tables.cuh) and uploads it before its first
// launch.
#pragma once

#include <thrust/system/cuda/error.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

#include "common/cuda_devices.hpp"
#include "cuda_check.hpp"
#include "pipeline/cuda_pipeline.hpp"
#include "device_memory.hpp"
#include "device_tables.cuh"
#include "for_each_index.cuh"
#include "pipeline/worker.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit::cuda {

// A device's state kept in a CudaSession (KeptDevice, below, is the one kind).
struct KeptDeviceBase {
  virtual ~KeptDeviceBase() = default;
};

struct CudaSession::Devices {
  std::vector<std::unique_ptr<KeptDeviceBase>> kept;  // by device index
};

CudaSession::CudaSession() : devices(std::make_unique<Devices>()) {}
CudaSession::~CudaSession() = default;

namespace {

// Share of a device's free memory taken for level buffers and Thrust's scratch (both live
// in one block); the rest is left to the runtime and other processes.
constexpr double LEVEL_MEMORY_SHARE = 0.8;

class DeviceBlock {
 public:
  DeviceBlock() = default;
  explicit DeviceBlock(std::size_t bytes) : buffer_(bytes) {}
  std::byte* data() const { return buffer_.data(); }
  std::size_t size() const { return buffer_.size(); }
  bool empty() const { return buffer_.size() == 0; }

 private:
  DeviceBuffer<std::byte> buffer_;
};

// A device's transposition table never takes more than this share of its free memory: the
// level buffers need the rest.
constexpr double TABLE_MEMORY_SHARE = 0.5;
// Below this a table is not worth having: the device counts without one.
constexpr std::size_t MIN_TABLE_BYTES = std::size_t(1) << 20;

// The transposition table of the current device, zeroed (empty) before the level buffers
// are allocated: `bytes` (whole buckets), halved while it does not fit, with a line on
// stderr when it shrinks. Empty (no table) when even MIN_TABLE_BYTES does not fit. Waits for
// the GPU.
DeviceBuffer<SubtreeBucket> allocate_table(int device, std::size_t bytes, cudaStream_t stream) {
  std::size_t free_bytes = 0, total_bytes = 0;
  PERFTKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::uint64_t wanted = std::max<std::uint64_t>(bytes / sizeof(SubtreeBucket), 1);
  const std::uint64_t fewest = std::min<std::uint64_t>(wanted, MIN_TABLE_BYTES / sizeof(SubtreeBucket));
  const auto cap = static_cast<std::size_t>(static_cast<double>(free_bytes) * TABLE_MEMORY_SHARE);
  DeviceBuffer<SubtreeBucket> table;
  for (std::uint64_t buckets = std::min<std::uint64_t>(wanted, cap / sizeof(SubtreeBucket));
       buckets >= fewest && buckets; buckets /= 2) {
    try {
      table = DeviceBuffer<SubtreeBucket>(buckets);
      break;
    } catch (const CudaError& e) {
      if (!e.out_of_memory()) throw;
      (void)cudaGetLastError();
    }
  }
  const std::size_t got = table.size() * sizeof(SubtreeBucket);
  if (got) {
    PERFTKIT_CUDA_CHECK(cudaMemsetAsync(table.data(), 0, got, stream));
    PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  if (table.size() < wanted)
    std::fprintf(stderr, "hash: device %d: a %zu MB table does not fit in its free memory; %s\n", device, bytes >> 20,
                 got ? ("using " + std::to_string(got >> 20) + " MB").c_str() : "counting without a table");
  return table;
}

// The pipeline's System on the current device and one stream; every call waits for it.
struct CudaSystem {
  using Block = DeviceBlock;
  static constexpr bool BALANCES_LAST_PLIES = true;  // the statistics' last two plies as child slots (tally.hpp)
  cudaStream_t stream;

  template <typename Body>
  decltype(auto) run(pipeline::Arena& arena, std::uint64_t, Body&& body) const {
    return body(thrust::cuda::par(pipeline::ArenaAllocator(arena)).on(stream));
  }
  template <typename F>
  void for_each_index(std::uint64_t n, const F& f) const {
    cuda::for_each_index(n, f, stream);
  }
  template <typename T>
  T read(const T* p) const {
    T value;
    PERFTKIT_CUDA_CHECK(cudaMemcpyAsync(&value, p, sizeof(T), cudaMemcpyDeviceToHost, stream));
    PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
    return value;
  }
  void upload(void* dst, const void* src, std::size_t bytes) const {
    PERFTKIT_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
    PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  Block allocate(std::size_t bytes) const { return Block(bytes); }
  // An allocation failure is not sticky: clear it so the next call does not report it.
  void recover() const { (void)cudaGetLastError(); }
  static bool is_out_of_memory(const std::exception& e) {
    if (const auto* cuda_error = dynamic_cast<const CudaError*>(&e)) return cuda_error->out_of_memory();
    if (const auto* thrust_error = dynamic_cast<const thrust::system_error*>(&e))
      return thrust_error->code().category() == thrust::cuda_category() &&
             thrust_error->code().value() == cudaErrorMemoryAllocation;
    return false;
  }
};

template <typename Tally>
struct SharedWork {
  const std::vector<FrontierNode>& frontier;
  const std::vector<pipeline::BatchSpan>& batches;
  int remaining;
  const PipelineOptions& options;
  std::size_t biggest;  // nodes of the biggest batch
  std::atomic<std::size_t> next{0};
  pipeline::BatchResults<Tally>& results;  // each batch's slots are written by the one thread that took it
};

// Level-buffer bytes for a worker on the current device: options.memory_budget, else what
// the biggest batch could use, at most LEVEL_MEMORY_SHARE of free memory (plus `held`, the
// bytes of a block about to be given back).
std::size_t level_budget(const PipelineOptions& options, std::size_t biggest, int remaining, bool table,
                         std::size_t held = 0) {
  if (options.memory_budget) return options.memory_budget;
  std::size_t free_bytes = 0, total_bytes = 0;
  PERFTKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t estimate = table
                                   ? pipeline::level_memory_estimate(biggest, remaining, pipeline::SUBTREE_EXTRA_BYTES)
                                   : pipeline::level_memory_estimate(biggest, remaining);
  return std::min(static_cast<std::size_t>(static_cast<double>(free_bytes + held) * LEVEL_MEMORY_SHARE), estimate);
}

// The batches of `work` that this device takes, on worker, until none are left; the
// worker's counters of this run.
template <typename Tally>
PipelineCounters take_batches(pipeline::BatchWorker<CudaSystem, Tally>& worker, SharedWork<Tally>& work,
                              std::size_t table_bytes) {
  bool took_work = false;
  for (std::size_t i = work.next++; i < work.batches.size(); i = work.next++) {
    work.results.totals[i] = worker.run(work.frontier, work.batches[i], work.remaining, work.results.leftovers[i]);
    took_work = true;
  }
  PipelineCounters counters = worker.take_counters();
  counters.devices = took_work ? 1 : 0;
  counters.table_bytes = table_bytes;
  return counters;
}

// What one device keeps in a CudaSession: node counts with a table, its stream, the table
// and the worker with its level buffers, and the table settings they were made for.
struct KeptDevice final : KeptDeviceBase {
  using Worker = pipeline::BatchWorker<CudaSystem, pipeline::CountNodes>;

  Stream stream;
  DeviceBuffer<SubtreeBucket> table_memory;
  SubtreeTableView table{};
  CudaSystem system{};
  std::unique_ptr<Worker> worker;
  std::size_t hash_bytes = 0;
  std::uint64_t hash_seed = 0, hash_index_mask = 0;

  bool made_for(const PipelineOptions& options) const {
    return hash_bytes == options.hash_bytes && hash_seed == options.hash_seed &&
           hash_index_mask == options.hash_index_mask;
  }
};

// The device's kept state for this run, made (table zeroed, level buffers allocated) when
// there is none or its table settings differ; its level buffers are made again, larger,
// when this run's biggest batch could use more than they hold.
KeptDevice& kept_device(CudaSession& session, int device, const SharedWork<pipeline::CountNodes>& work) {
  auto& slot = session.devices->kept[static_cast<std::size_t>(device)];
  auto* kept = static_cast<KeptDevice*>(slot.get());
  if (!kept || !kept->made_for(work.options)) {
    slot.reset();  // the old table's memory first
    auto fresh = std::make_unique<KeptDevice>();
    fresh->system = CudaSystem{fresh->stream.get()};
    fresh->table_memory = allocate_table(device, work.options.hash_bytes, fresh->stream.get());
    if (fresh->table_memory.size())
      fresh->table = {fresh->table_memory.data(),
                      subtree_table_layout(fresh->table_memory.size() * sizeof(SubtreeBucket)),
                      work.options.hash_index_mask};
    fresh->hash_bytes = work.options.hash_bytes;
    fresh->hash_seed = work.options.hash_seed;
    fresh->hash_index_mask = work.options.hash_index_mask;
    kept = fresh.get();
    slot = std::move(fresh);
  }
  const bool table = bool(kept->table);
  if (!kept->worker || level_budget(work.options, work.biggest, work.remaining, table) > kept->worker->block_bytes()) {
    const std::size_t held = kept->worker ? kept->worker->block_bytes() : 0;
    kept->worker.reset();
    const std::size_t budget = level_budget(work.options, work.biggest, work.remaining, table, held);
    kept->worker = std::make_unique<KeptDevice::Worker>(kept->system, budget, work.options, kept->table);
  }
  kept->worker->use_options(work.options);
  return *kept;
}

// One device's host thread: tables, stream, level buffers (kept in the run's CudaSession
// for hashed node counts, else made for this run), then batches until none are left.
template <typename Tally>
PipelineCounters device_worker(int device, SharedWork<Tally>& work) {
  PERFTKIT_CUDA_CHECK(cudaSetDevice(device));
  ensure_device_tables(device);
  if constexpr (std::is_same_v<Tally, pipeline::CountNodes>) {
    if (work.options.cuda_session && work.options.hash_bytes) {
      KeptDevice& kept = kept_device(*work.options.cuda_session, device, work);
      return take_batches(*kept.worker, work, kept.table_memory.size() * sizeof(SubtreeBucket));
    }
  }
  const Stream stream;
  // The transposition table first: its bytes come out of the memory the levels are sized from.
  DeviceBuffer<SubtreeBucket> table_memory;
  if (std::is_same_v<Tally, pipeline::CountNodes> && work.options.hash_bytes)
    table_memory = allocate_table(device, work.options.hash_bytes, stream.get());
  SubtreeTableView table{};
  if (table_memory.size())
    table = {table_memory.data(), subtree_table_layout(table_memory.size() * sizeof(SubtreeBucket)),
             work.options.hash_index_mask};
  const std::size_t budget = level_budget(work.options, work.biggest, work.remaining, bool(table));
  const CudaSystem system{stream.get()};
  pipeline::BatchWorker<CudaSystem, Tally> worker(system, budget, work.options, table);
  return take_batches(worker, work, table_memory.size() * sizeof(SubtreeBucket));
}

}  // namespace

template <typename Tally>
pipeline::BatchResults<Tally> count_batches_pipeline(const std::vector<FrontierNode>& frontier,
                                                     const std::vector<pipeline::BatchSpan>& batches, int remaining,
                                                     const PipelineOptions& options) {
  int devices = device_count();
  if (options.max_devices > 0) devices = std::min(devices, options.max_devices);
  if (devices <= 0) throw std::runtime_error("pipeline: no CUDA device is available");

  pipeline::BatchResults<Tally> results;
  results.totals.assign(batches.size(), typename Tally::Total{});
  results.leftovers.resize(batches.size());
  std::size_t biggest = 0;
  for (const pipeline::BatchSpan& b : batches) biggest = std::max(biggest, b.count);
  SharedWork<Tally> work{frontier, batches, remaining, options, biggest, {}, results};
  if (options.cuda_session && options.cuda_session->devices->kept.size() < static_cast<std::size_t>(devices))
    options.cuda_session->devices->kept.resize(static_cast<std::size_t>(devices));
  std::vector<PipelineCounters> counters(static_cast<std::size_t>(devices));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(devices));
  std::vector<std::thread> threads;
  for (int d = 0; d < devices; ++d)
    threads.emplace_back([&, d] {
      const auto slot = static_cast<std::size_t>(d);
      try {
        counters[slot] = device_worker(d, work);
      } catch (const thrust::system_error& e) {
        // Thrust reports a CUDA failure as a std::runtime_error: it is a runtime failure (exit
        // code 3), named as one, never "bad input".
        errors[slot] = std::make_exception_ptr(
            RuntimeFailure("CUDA device " + std::to_string(d) + ": Thrust: " + std::string(e.what())));
        work.next = batches.size();
      } catch (...) {
        errors[slot] = std::current_exception();
        work.next = batches.size();  // the others stop taking batches; the run fails below
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) {
      // A device left part way through a run: its kept state is not trusted again.
      if (options.cuda_session) options.cuda_session->devices->kept.clear();
      std::rethrow_exception(e);
    }
  for (const PipelineCounters& c : counters) results.counters += c;
  return results;
}

}  // namespace perftkit::cuda
