// The pipeline's worker on a test double of a GPU: host memory, but the rules of the CUDA
// system (cuda/pipeline_cuda_worker.cuh). Thrust's temporaries come from the worker's arena
// through ArenaAllocator, and block allocations or steps fail the way cudaMalloc does. The
// OpenMP system never takes these paths (Thrust allocates for itself there, and host memory
// does not run out), so without this double they would first run on a lent GPU.
#include <gtest/gtest.h>
#include <thrust/system/cpp/execution_policy.h>

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "perftkit/stats.hpp"
#include "pipeline/frontier.hpp"
#include "pipeline/host_block.hpp"
#include "pipeline/stats_totals.hpp"
#include "pipeline/subtree_table.hpp"
#include "pipeline/worker.hpp"
#include "support/standard_positions.hpp"

namespace perftkit::pipeline {
namespace {

using namespace test_positions;

// What cudaMalloc or a Thrust step reports when the device has no memory left.
struct SimulatedOutOfMemory : std::runtime_error {
  SimulatedOutOfMemory() : std::runtime_error("simulated device: out of memory") {}
};

// Counts how many bytes of temporaries a step took from the arena, then hands on to the
// allocator the CUDA system uses.
class CountingArenaAllocator {
 public:
  using value_type = char;
  CountingArenaAllocator(Arena& arena, std::size_t& bytes) : inner_(arena), bytes_(&bytes) {}
  char* allocate(std::ptrdiff_t bytes) {
    char* p = inner_.allocate(bytes);
    *bytes_ += static_cast<std::size_t>(bytes);
    return p;
  }
  void deallocate(char* p, std::size_t bytes) noexcept { inner_.deallocate(p, bytes); }

 private:
  ArenaAllocator inner_;
  std::size_t* bytes_;
};

// The events a run on the double leaves behind.
struct DeviceLog {
  std::size_t refused_allocations = 0;
  std::size_t failed_steps = 0;
  std::size_t recoveries = 0;
  std::size_t temporary_bytes = 0;
};

// A System for BatchWorker (worker.hpp) that allocates at most `allocation_limit` bytes per
// block and fails its first `steps_to_fail` Thrust steps as out of memory.
class DeviceDouble {
 public:
  using Block = HostBlock;
  static constexpr bool BALANCES_LAST_PLIES = true;  // as the CUDA system

  DeviceDouble(DeviceLog& log, std::size_t allocation_limit, std::size_t steps_to_fail = 0)
      : log_(&log), allocation_limit_(allocation_limit), steps_to_fail_(steps_to_fail) {}

  template <typename Body>
  decltype(auto) run(Arena& arena, std::uint64_t, Body&& body) const {
    if (steps_to_fail_ > 0) {
      --steps_to_fail_;
      ++log_->failed_steps;
      throw SimulatedOutOfMemory{};
    }
    return body(thrust::cpp::par(CountingArenaAllocator(arena, log_->temporary_bytes)));
  }
  template <typename F>
  void for_each_index(std::uint64_t n, const F& f) const {
    for (std::uint64_t i = 0; i < n; ++i) f(i);
  }
  template <typename T>
  T read(const T* p) const {
    return *p;
  }
  void upload(void* dst, const void* src, std::size_t bytes) const { std::memcpy(dst, src, bytes); }
  Block allocate(std::size_t bytes) const {
    if (bytes > allocation_limit_) {
      ++log_->refused_allocations;
      throw SimulatedOutOfMemory{};
    }
    return Block(bytes);
  }
  void recover() const { ++log_->recoveries; }
  static bool is_out_of_memory(const std::exception& e) { return dynamic_cast<const SimulatedOutOfMemory*>(&e); }

 private:
  DeviceLog* log_;
  std::size_t allocation_limit_;
  mutable std::size_t steps_to_fail_;
};

constexpr std::size_t MiB = std::size_t(1) << 20;

// The start position two plies down (400 nodes, merged): perft 5 = 4,865,609 leaves below them.
struct StartposDepth5 {
  std::vector<FrontierNode> frontier = expand_frontier(position_from_fen("startpos"), 2, false);
  BatchSpan whole{0, frontier.size()};
  int remaining = 3;
  std::string published = "4865609";
};

u128 count_on(const DeviceDouble& device, std::size_t budget, const StartposDepth5& run,
              std::vector<BatchSpan>& leftovers, PipelineCounters& counters, SubtreeTableView table = {}) {
  const PipelineOptions options;
  BatchWorker<DeviceDouble, CountNodes> worker(device, budget, options, table);
  const u128 total = worker.run(run.frontier, run.whole, run.remaining, leftovers);
  counters = worker.counters();
  return total;
}

std::size_t nodes_in(const std::vector<BatchSpan>& spans) {
  std::size_t n = 0;
  for (const BatchSpan& s : spans) n += s.count;
  return n;
}

// The sorts and scans of every level take their scratch from the worker's block, as on the
// GPU, and the count is exact.
TEST(PipelineDeviceDouble, ThrustTemporariesComeFromTheArena) {
  const StartposDepth5 run;
  DeviceLog log;
  const DeviceDouble device(log, 64 * MiB);
  std::vector<BatchSpan> leftovers;
  PipelineCounters counters;
  EXPECT_EQ(to_string_u128(count_on(device, 8 * MiB, run, leftovers, counters)), run.published);
  EXPECT_TRUE(leftovers.empty());
  EXPECT_GT(log.temporary_bytes, 0u);
  EXPECT_EQ(counters.batches, 1u);
  EXPECT_EQ(counters.memory_retries, 0u);
}

// A block the device refuses is halved until it is granted (64 MiB asked, 3 MiB free: five
// refusals, a 2 MiB block), and the count is the same.
TEST(PipelineDeviceDouble, RefusedBlocksAreHalvedUntilOneIsGranted) {
  const StartposDepth5 run;
  DeviceLog log;
  const DeviceDouble device(log, 3 * MiB);
  std::vector<BatchSpan> leftovers;
  PipelineCounters counters;
  EXPECT_EQ(to_string_u128(count_on(device, 64 * MiB, run, leftovers, counters)), run.published);
  EXPECT_TRUE(leftovers.empty());
  EXPECT_EQ(log.refused_allocations, 5u);
  EXPECT_EQ(log.recoveries, 5u);
  EXPECT_EQ(counters.min_budget, 2 * MiB);
}

// A step that runs out of device memory part way (Thrust's own cudaMalloc failing) makes the
// worker recover, halve its block and start the batch again: nothing is counted twice.
TEST(PipelineDeviceDouble, OutOfMemoryInsideAStepRetriesWithHalfTheBlock) {
  const StartposDepth5 run;
  DeviceLog log;
  const DeviceDouble device(log, 64 * MiB, 2);
  std::vector<BatchSpan> leftovers;
  PipelineCounters counters;
  EXPECT_EQ(to_string_u128(count_on(device, 16 * MiB, run, leftovers, counters)), run.published);
  EXPECT_TRUE(leftovers.empty());
  EXPECT_EQ(log.failed_steps, 2u);
  EXPECT_EQ(counters.memory_retries, 2u);
  EXPECT_EQ(counters.min_budget, 4 * MiB);
}

// Failures until the block would drop below MIN_BUDGET: the whole batch is handed back as
// leftovers, and the CPU core counts it exactly.
TEST(PipelineDeviceDouble, AWorkerLeftWithoutMemoryHandsEverythingToTheCpu) {
  const StartposDepth5 run;
  DeviceLog log;
  const DeviceDouble device(log, 64 * MiB, 1000);
  std::vector<BatchSpan> leftovers;
  PipelineCounters counters;
  EXPECT_EQ(to_string_u128(count_on(device, 4 * MiB, run, leftovers, counters)), "0");
  EXPECT_EQ(nodes_in(leftovers), run.frontier.size());
  EXPECT_EQ(counters.memory_retries, 3u);  // 4 MiB, 2 MiB, 1 MiB, then nothing
  u128 cpu = 0;
  for (const BatchSpan& span : leftovers) cpu += count_span_cpu<CountNodes>(run.frontier, span, run.remaining, 1);
  EXPECT_EQ(to_string_u128(cpu), run.published);
}

// A block that holds the frontier but not its levels and their scratch: the batch is split
// in halves until the pieces fit, and each piece is counted once.
TEST(PipelineDeviceDouble, ABlockTooSmallForTheLevelsSplitsTheBatch) {
  const StartposDepth5 run;
  DeviceLog log;
  const DeviceDouble device(log, 64 * MiB);
  std::vector<BatchSpan> leftovers;
  const PipelineOptions options;
  BatchWorker<DeviceDouble, CountNodes> worker(device, 24 << 10, options);  // 400 nodes need 32 KB
  u128 total = worker.run(run.frontier, run.whole, run.remaining, leftovers);
  for (const BatchSpan& span : leftovers) total += count_span_cpu<CountNodes>(run.frontier, span, run.remaining, 1);
  EXPECT_EQ(to_string_u128(total), run.published);
  EXPECT_GT(worker.counters().batches, 1u);
  EXPECT_GT(log.temporary_bytes, 0u);
}

// The subtree mode stores exact subtree counts in the table as it goes. A batch that fails
// part way and is retried must leave only exact counts behind: a second run over the same
// table, which hits it, gives the same count.
TEST(PipelineDeviceDouble, RetriesLeaveTheTranspositionTableExact) {
  const StartposDepth5 run;
  const SubtreeTable table(4 * MiB);
  DeviceLog log;
  const DeviceDouble failing(log, 64 * MiB, 3);
  std::vector<BatchSpan> leftovers;
  PipelineCounters first, second;
  EXPECT_EQ(to_string_u128(count_on(failing, 16 * MiB, run, leftovers, first, table.view())), run.published);
  EXPECT_EQ(log.failed_steps, 3u);
  EXPECT_GT(first.memory_retries, 0u);
  EXPECT_TRUE(leftovers.empty());

  DeviceLog clean_log;
  const DeviceDouble clean(clean_log, 64 * MiB);
  EXPECT_EQ(to_string_u128(count_on(clean, 16 * MiB, run, leftovers, second, table.view())), run.published);
  EXPECT_GT(second.table_hits, 0u);
}

// A worker kept across runs, as a CudaSession keeps one per device for a work dir's shards:
// the same block and table serve every run, each run's counters come back on their own, and
// a later run's options (another sort-key seed) take effect; every count exact.
TEST(PipelineDeviceDouble, AKeptWorkerCarriesItsTableFromRunToRun) {
  const StartposDepth5 run;
  const SubtreeTable table(16 * MiB);
  DeviceLog log;
  const DeviceDouble device(log, 64 * MiB);
  PipelineOptions options;
  BatchWorker<DeviceDouble, CountNodes> worker(device, 16 * MiB, options, table.view());
  // Two shards: the halves of the frontier, one run each.
  const std::size_t half = run.frontier.size() / 2;
  const BatchSpan shards[2] = {{0, half}, {half, run.frontier.size() - half}};
  std::vector<BatchSpan> leftovers;
  u128 total = 0;
  for (const BatchSpan& shard : shards) {
    total += worker.run(run.frontier, shard, run.remaining, leftovers);
    const PipelineCounters counters = worker.take_counters();
    EXPECT_EQ(counters.batches, 1u);
    EXPECT_GE(counters.table_probes, shard.count);
    EXPECT_GT(counters.leaf_nodes, 1000u);  // mostly counted, not found
  }
  EXPECT_EQ(to_string_u128(total), run.published);

  // The whole frontier again: its subtrees were stored by the two shards.
  options.key_seed = 12345;
  worker.use_options(options);
  EXPECT_EQ(to_string_u128(worker.run(run.frontier, run.whole, run.remaining, leftovers)), run.published);
  const PipelineCounters again = worker.take_counters();
  EXPECT_EQ(again.batches, 1u);
  EXPECT_GE(again.table_probes, run.frontier.size());
  EXPECT_GE(10 * again.table_hits, 9 * again.table_probes);
  EXPECT_TRUE(leftovers.empty());
  EXPECT_EQ(worker.block_bytes(), 16 * MiB);
  EXPECT_EQ(log.refused_allocations, 0u);
}

// The statistics' last plies on the device's road: two plies as child slots (a thread per
// (node, move), at most 50 slots a chunk), one ply as LastPlyStats; every counter equals the
// CPU core's recursion. Frontiers 1, 2 and 3 plies below Kiwipete leave 3, 2 and 1 plies.
TEST(PipelineDeviceDouble, StatisticsOverChildSlotsMatchTheCpuCore) {
  const Position kiwipete = position_from_fen(KIWIPETE);
  LeafStats expected{};
  perft_stats(kiwipete, 4, expected);
  for (const int plies : {1, 2, 3}) {
    const std::vector<FrontierNode> frontier = expand_frontier(kiwipete, plies, false, false);
    DeviceLog log;
    const DeviceDouble device(log, 64 * MiB);
    PipelineOptions options;
    options.max_chunk_nodes = 50;
    BatchWorker<DeviceDouble, CountStats> worker(device, 8 * MiB, options);
    std::vector<BatchSpan> leftovers;
    const StatsTotals totals = worker.run(frontier, BatchSpan{0, frontier.size()}, 4 - plies, leftovers);
    EXPECT_TRUE(leftovers.empty());
    for (int f = 0; f < STAT_FIELD_NB; ++f)
      EXPECT_EQ(to_string_u128(totals.count[f]), std::to_string(expected.count[f])) << plies << " plies, field " << f;
    if (plies < 3) EXPECT_GT(worker.counters().slot_chunks, 100u) << plies;
    else EXPECT_EQ(worker.counters().slot_chunks, 0u);
  }
}

}  // namespace
}  // namespace perftkit::pipeline
