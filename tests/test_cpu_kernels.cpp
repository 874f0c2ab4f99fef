// Every level of CPU kernels this machine can run (cpu_kernels.hpp) against the published
// counts: plain, hashed and with statistics. Levels the CPU lacks are listed but not run;
// tests/portable_binary.cmake runs the whole binary on emulated older CPUs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perft/cpu_kernels.hpp"
#include "standard_positions.hpp"

namespace perftkit {
namespace {

using test_positions::CI_DEPTH_COUNTS;
using test_positions::position_from_fen;

TEST(CpuKernels, LevelsAreFastestFirstAndEndWithThePortableOne) {
  const std::vector<CpuKernelLevel> levels = cpu_kernel_levels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.back().kernels, &CPU_KERNELS_PORTABLE);
  EXPECT_TRUE(levels.back().supported);
  std::set<std::string> names;
  for (const CpuKernelLevel& level : levels) EXPECT_TRUE(names.insert(level.kernels->name).second);
  if (levels.size() > 1) {
    EXPECT_EQ(std::string(levels[0].kernels->name), "avx512");
    EXPECT_EQ(std::string(levels[1].kernels->name), "avx2_bmi2");
    if (levels[0].supported) {
      EXPECT_TRUE(levels[1].supported);  // AVX-512's level includes AVX2's
    }
  }
}

TEST(CpuKernels, TheChosenLevelIsTheFastestThisCpuRuns) {
  if (const char* asked = std::getenv("PERFTKIT_CPU_KERNEL"); asked && *asked)
    GTEST_SKIP() << "PERFTKIT_CPU_KERNEL=" << asked << " chooses the level";
  for (const CpuKernelLevel& level : cpu_kernel_levels())
    if (level.supported) {
      EXPECT_EQ(&cpu_kernels(), level.kernels);
      return;
    }
}

TEST(CpuKernels, EveryLevelCountsThePublishedTrees) {
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    for (const auto& c : CI_DEPTH_COUNTS)
      EXPECT_EQ(u128(level.kernels->perft(position_from_fen(c.fen), c.depth)), c.nodes)
          << level.kernels->name << " " << c.name;
  }
}

TEST(CpuKernels, EveryLevelCountsThePublishedTreesWithATable) {
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    PerftTable table(std::size_t(16) << 20);
    const KeySet keys(7);
    for (const auto& c : CI_DEPTH_COUNTS) {
      const Position pos = position_from_fen(c.fen);
      EXPECT_EQ(u128(level.kernels->perft_hashed(pos, c.depth, table, keys)), c.nodes)
          << level.kernels->name << " " << c.name;
      EXPECT_EQ(u128(level.kernels->perft_hashed(pos, c.depth, table, keys)), c.nodes)
          << level.kernels->name << " " << c.name << ", from the table";
    }
  }
}

// The Chess Programming Wiki's detailed counts: Kiwipete at depth 3, position 3 at depth 5.
struct PublishedStats {
  const char* fen;
  int depth;
  std::vector<std::pair<StatField, std::uint64_t>> counts;
};

TEST(CpuKernels, EveryLevelCountsThePublishedStatistics) {
  const PublishedStats published[] = {
      {test_positions::KIWIPETE,
       3,
       {{NODES, 97862},
        {CAPTURES, 17102},
        {EN_PASSANT_CAPTURES, 45},
        {CASTLES, 3162},
        {PROMOTIONS, 0},
        {CHECKS, 993},
        {CHECKMATES, 1}}},
      {test_positions::POSITION3,
       5,
       {{NODES, 674624},
        {CAPTURES, 52051},
        {EN_PASSANT_CAPTURES, 1165},
        {CHECKS, 52950},
        {DISCOVERED_CHECKS, 1292},
        {DOUBLE_CHECKS, 3},
        {CHECKMATES, 0}}},
  };
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    for (const PublishedStats& p : published) {
      LeafStats stats{};
      level.kernels->perft_stats(position_from_fen(p.fen), p.depth, stats);
      for (const auto& [field, count] : p.counts)
        EXPECT_EQ(stats[field], count) << level.kernels->name << " " << p.fen << " field " << int(field);
    }
  }
}

}  // namespace
}  // namespace perftkit
