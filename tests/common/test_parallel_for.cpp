// The one way to run work on all cores (common/parallel_for.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/parallel_for.hpp"

namespace perftkit {
namespace {

TEST(ParallelFor, EveryItemRunsOnceOnTheThreadsAsked) {
  constexpr std::size_t ITEMS = 10000;
  std::vector<std::atomic<int>> runs(ITEMS);
  std::vector<std::atomic<int>> per_worker(4);
  parallel_for(ITEMS, 4, [&](unsigned worker, std::size_t item) {
    ASSERT_LT(worker, 4u);
    ++runs[item];
    ++per_worker[worker];
  });
  for (std::size_t i = 0; i < ITEMS; ++i) ASSERT_EQ(runs[i], 1) << "item " << i;
  int total = 0;
  for (const auto& n : per_worker) total += n;
  EXPECT_EQ(total, int(ITEMS));
}

TEST(ParallelFor, PerWorkerTotalsAddUpExactly) {
  std::vector<long long> totals(3, 0);  // one per worker: no two threads share one
  parallel_for(1000, 3, [&](unsigned worker, std::size_t item) { totals[worker] += (long long)item; });
  EXPECT_EQ(totals[0] + totals[1] + totals[2], 999LL * 1000 / 2);
}

TEST(ParallelFor, NoMoreThreadsThanItemsAndNoneForNoItems) {
  std::mutex mutex;
  std::vector<unsigned> workers;
  parallel_for(2, 16, [&](unsigned worker, std::size_t) {
    const std::lock_guard lock(mutex);
    workers.push_back(worker);
  });
  ASSERT_EQ(workers.size(), 2u);
  for (const unsigned w : workers) EXPECT_LT(w, 2u);
  int calls = 0;
  parallel_for(0, 8, [&](unsigned, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  parallel_for(5, 0, [&](unsigned worker, std::size_t) {  // 0 threads: the caller's alone
    EXPECT_EQ(worker, 0u);
    ++calls;
  });
  EXPECT_EQ(calls, 5);
}

TEST(ParallelFor, AnExceptionOnAnyThreadReachesTheCaller) {
  for (int round = 0; round < 20; ++round) {
    EXPECT_THROW(parallel_for(64, 2,
                              [](unsigned, std::size_t item) {
                                if (item == 63) throw std::runtime_error("last item");
                              }),
                 std::runtime_error);
  }
}

TEST(ParallelFor, NoItemIsHandedOutAfterAnExceptionOnOneThread) {
  std::vector<std::size_t> ran;
  EXPECT_THROW(parallel_for(100, 1,
                            [&](unsigned, std::size_t item) {
                              ran.push_back(item);
                              if (item == 10) throw std::runtime_error("item 10");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran.size(), 11u);
}

TEST(ParallelFor, ASetStopFlagStopsTheHandingOutOfItems) {
  StopFlag stop{false};
  const StopScope scope(&stop);
  std::atomic<std::size_t> ran{0};
  EXPECT_THROW(parallel_for(1000, 2,
                            [&](unsigned, std::size_t item) {
                              ++ran;
                              if (item == 10) stop = true;
                            }),
               Cancelled);
  EXPECT_LT(ran.load(), 1000u);
}

TEST(ParallelFor, ItemsRunUnderTheCallersStopFlag) {
  StopFlag stop{false};
  const StopScope scope(&stop);
  std::atomic<int> under_flag{0};
  parallel_for(8, 2, [&](unsigned, std::size_t) {
    if (current_stop_flag() == &stop) ++under_flag;
  });
  EXPECT_EQ(under_flag, 8);
}

TEST(ParallelFor, WithoutAStopScopeNothingStops) {
  EXPECT_EQ(current_stop_flag(), nullptr);
  std::atomic<int> calls{0};
  parallel_for(100, 2, [&](unsigned, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 100);
}

}  // namespace
}  // namespace perftkit
