// The pipeline on Thrust's OpenMP system: host memory, thrust::omp::par, every core inside
// each step (or, in a build without OpenMP, each step on the calling thread). The same level templates run on the GPU
// from cuda/pipeline_cuda_worker.cuh.
//
// Included by one translation unit per tally (omp_nodes.cpp, omp_stats.cpp),
// so that the two build in parallel; everything but count_batches_omp has internal linkage.
#pragma once

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/execution_policy.h>
// A build without OpenMP (the sanitizer presets) runs every step on the calling thread.
#ifdef _OPENMP
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>
#endif

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>

#include "pipeline/backend.hpp"
#include "pipeline/host_block.hpp"
#include "pipeline/worker.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit::pipeline {
namespace {

// Below these sizes a step runs on the calling thread: waking the team costs more than
// the work (a light Thrust step; a position's move generation is some 100 times heavier).
constexpr std::uint64_t PARALLEL_STEP_ELEMENTS = 1 << 15;
constexpr std::uint64_t PARALLEL_NODES = 1 << 7;

#ifdef _OPENMP
constexpr const char* HOST_SYSTEM_NAME = "OpenMP";
#else
constexpr const char* HOST_SYSTEM_NAME = "sequential";
#endif

struct OmpSystem {
  using Block = HostBlock;
  static constexpr bool STATS_TABLE = true;  // statistics run in the table mode (stats_subtrees.hpp)

  // Thrust's own (thread-safe) allocator: the OpenMP sort allocates inside its parallel region.
  template <typename Body>
  decltype(auto) run(Arena&, [[maybe_unused]] std::uint64_t n, Body&& body) const {
#ifdef _OPENMP
    if (n >= PARALLEL_STEP_ELEMENTS) return body(thrust::omp::par);
#endif
    return body(thrust::seq);
  }
  // f(i) for i < n, in blocks of BLOCK indices. A functor that reads a table at random
  // splits f(i) into run(i, prepare(i)), where prepare finds what the table read needs (the
  // key): a block's prepare(i) all run first and prefetch their buckets, then its run(i),
  // so that the block's cache misses overlap instead of stalling one by one.
  template <typename F>
  void for_each_index(std::uint64_t n, const F& f) const {
    const std::uint64_t blocks = (n + BLOCK - 1) / BLOCK;
#ifdef _OPENMP
    if (n >= PARALLEL_NODES) {
      const auto count = static_cast<std::int64_t>(blocks);
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t b = 0; b < count; ++b) run_block(f, static_cast<std::uint64_t>(b), n);
      return;
    }
#endif
    for (std::uint64_t b = 0; b < blocks; ++b) run_block(f, b, n);
  }
  static constexpr std::uint64_t BLOCK = 16;
  template <typename F>
  static void run_block(const F& f, std::uint64_t b, std::uint64_t n) {
    const std::uint64_t first = b * BLOCK, last = std::min(n, first + BLOCK);
    if constexpr (requires { f.run(first, f.prepare(first)); }) {
      decltype(f.prepare(first)) prepared[BLOCK];
      for (std::uint64_t i = first; i < last; ++i) {
        prepared[i - first] = f.prepare(i);
        prefetch_line(f.bucket_of(prepared[i - first]));
      }
      for (std::uint64_t i = first; i < last; ++i) f.run(i, prepared[i - first]);
    } else {
      for (std::uint64_t i = first; i < last; ++i) f(i);
    }
  }
  template <typename T>
  T read(const T* p) const {
    return *p;
  }
  void upload(void* dst, const void* src, std::size_t bytes) const { std::memcpy(dst, src, bytes); }
  Block allocate(std::size_t bytes) const { return Block(bytes); }
  void recover() const {}
  static bool is_out_of_memory(const std::exception&) { return false; }  // std::bad_alloc is caught anyway
};

// Sets the OpenMP thread count of the calling thread for a scope (0: leave it).
#ifdef _OPENMP
class OmpThreads {
 public:
  explicit OmpThreads(unsigned threads) : previous_(omp_get_max_threads()) {
    if (threads) omp_set_num_threads(static_cast<int>(threads));
  }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;
  ~OmpThreads() { omp_set_num_threads(previous_); }

 private:
  int previous_;
};
#else
struct OmpThreads {  // (one thread: nothing to set)
  explicit OmpThreads(unsigned) {}
};
#endif

// The run's table (node counts with hash_bytes): the one the options hand in, else a fresh
// one in `owned`; an empty view for statistics or without hash_bytes.
template <typename Tally>
SubtreeTableView run_table(const PipelineOptions& options, std::optional<SubtreeTable>& owned) {
  if (!std::is_same_v<Tally, CountNodes> || (!options.hash_bytes && !options.omp_table)) return {};
  if (!options.omp_table) owned.emplace(options.hash_bytes);
  SubtreeTableView view = options.omp_table ? options.omp_table->view() : owned->view();
  view.index_mask = options.hash_index_mask;
  return view;
}

}  // namespace

template <typename Tally>
BatchResults<Tally> count_batches_omp(const std::vector<FrontierNode>& frontier, const std::vector<BatchSpan>& batches,
                                      int remaining, const PipelineOptions& options) {
  const OmpThreads threads(options.threads);
  const OmpSystem system;
  std::size_t biggest = 0;
  for (const BatchSpan& b : batches) biggest = std::max(biggest, b.count);
  std::optional<SubtreeTable> owned;
  const SubtreeTableView table = run_table<Tally>(options, owned);
  const StatsTableView stats_table = std::is_same_v<Tally, CountStats> ? options.stats_table : StatsTableView{};
  const bool hashed = table || stats_table;
  const std::size_t extra = table ? SUBTREE_EXTRA_BYTES : stats_table ? STATS_SUBTREE_CHILD_BYTES - NODE_BYTES : 0;
  const std::size_t estimate = level_memory_estimate(biggest, remaining, extra);
  const std::size_t default_budget = hashed ? SUBTREE_OMP_BUDGET : DEFAULT_OMP_BUDGET;
  const std::size_t budget = options.memory_budget ? options.memory_budget : std::min(default_budget, estimate);
  BatchWorker<OmpSystem, Tally> worker(system, budget, options, table, stats_table);
  BatchResults<Tally> results;
  results.totals.assign(batches.size(), typename Tally::Total{});
  results.leftovers.resize(batches.size());
  for (std::size_t i = 0; i < batches.size(); ++i)
    results.totals[i] = worker.run(frontier, batches[i], remaining, results.leftovers[i]);
  results.counters = worker.counters();
  if (table) results.counters.table_bytes = options.omp_table ? options.omp_table->bytes() : owned->bytes();
  if (stats_table) results.counters.table_bytes = stats_table.buckets * sizeof(SubtreeBucket);
  return results;
}

}  // namespace perftkit::pipeline
