// The frontier pipeline with the CUDA policy: the same level templates as the OpenMP run,
// against the CPU core and published counts. Cases skip themselves without a device.
#if defined(PERFTKIT_HAVE_CUDA)

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_devices.hpp"
#include "notation/fen.hpp"
#include "support/standard_positions.hpp"
#include "perftkit/perft.hpp"
#include "perft/driver.hpp"
#include "pipeline/cuda_pipeline.hpp"
#include "pipeline/pipeline.hpp"
#include "support/pipeline_root_runs.hpp"
#include "notation/suite.hpp"
#include "support/test_paths.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

#define PERFTKIT_REQUIRE_DEVICE() \
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"

PipelineOptions on_gpu() {
  PipelineOptions options;
  options.system = PipelineSystem::CUDA;
  return options;
}

std::string str(u128 v) { return to_string_u128(v); }

TEST(PipelineCuda, WithoutDeviceThrowsInsteadOfCounting) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(pipeline_available(PipelineSystem::CUDA));
  EXPECT_THROW(pipeline_perft(position_from_fen("startpos"), 4, false, on_gpu()), std::runtime_error);
}

const PublishedCount GPU_DEPTH_COUNTS[] = {
    {"Start_D1", "startpos", 1, 20},           {"Start_D3", "startpos", 3, 8902},
    {"Start_D6", "startpos", 6, 119060324},    {"Kiwipete_D5", KIWIPETE, 5, 193690690},
    {"Position3_D7", POSITION3, 7, 178633661}, {"Position4_D6", POSITION4, 6, 706045033},
    {"Position5_D5", POSITION5, 5, 89941194},  {"Position6_D5", POSITION6, 5, 164075551},
};

class PipelineCudaKnown : public ::testing::TestWithParam<PublishedCount> {};

TEST_P(PipelineCudaKnown, MergedAndUnmergedMatchPublishedCount) {
  PERFTKIT_REQUIRE_DEVICE();
  const PublishedCount& k = GetParam();
  for (bool merge : {true, false}) {
    PipelineOptions options = on_gpu();
    options.merge = merge;
    const PipelineReport report = pipeline_perft(position_from_fen(k.fen), k.depth, false, options);
    EXPECT_EQ(str(report.nodes), str(k.nodes)) << (merge ? "merged" : "unmerged");
    EXPECT_EQ(report.system, "cuda");
    EXPECT_GE(report.counters.devices, 1);
    EXPECT_EQ(report.counters.fallback_batches, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, PipelineCudaKnown, ::testing::ValuesIn(GPU_DEPTH_COUNTS),
                         [](const auto& param_info) { return std::string(param_info.param.name) + "_pipeline_cuda"; });

// Tiny batches and chunks in a small device budget: many launches, the same count, and the
// same merges as the OpenMP system.
TEST(PipelineCuda, TinyBatchesAndChunksMatchTheOmpSystem) {
  PERFTKIT_REQUIRE_DEVICE();
  const Position root = position_from_fen(KIWIPETE);
  PipelineOptions options = on_gpu();
  options.host_plies = 2;
  options.batch_nodes = 64;
  options.max_chunk_nodes = 4096;
  options.memory_budget = 8 << 20;
  const PipelineReport gpu = pipeline_perft(root, 5, false, options);
  options.system = PipelineSystem::OMP;
  const PipelineReport cpu = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(gpu.nodes), "193690690");
  EXPECT_EQ(str(cpu.nodes), "193690690");
  EXPECT_EQ(gpu.counters.batches, cpu.counters.batches);
  EXPECT_EQ(gpu.counters.chunks, cpu.counters.chunks);
  EXPECT_EQ(gpu.counters.merged_away, cpu.counters.merged_away);
  EXPECT_EQ(gpu.counters.leaf_nodes, cpu.counters.leaf_nodes);
}

TEST(PipelineCuda, ExhaustedDeviceBudgetFallsBackExactly) {
  PERFTKIT_REQUIRE_DEVICE();
  PipelineOptions options = on_gpu();
  options.host_plies = 2;
  options.memory_budget = 6 << 10;
  const PipelineReport report = pipeline_perft(position_from_fen("startpos"), 5, false, options);
  EXPECT_EQ(str(report.nodes), "4865609");
  EXPECT_GT(report.counters.fallback_batches, 0u);
}

TEST(PipelineCuda, CollidingKeysAndDivideStayExact) {
  PERFTKIT_REQUIRE_DEVICE();
  PipelineOptions options = on_gpu();
  options.key_mask = 0xF;
  const Position root = position_from_fen(POSITION5);
  const PipelineReport report = pipeline_perft(root, 5, true, options);
  EXPECT_EQ(str(report.nodes), "89941194");
  const std::vector<Move> moves = root_moves(root);
  ASSERT_EQ(report.divide.size(), moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m)
    EXPECT_EQ(str(report.divide[m]), str(perft(make_move(root, moves[m]), 4))) << "root move " << m;
}

// Every visible device takes batches from the shared queue; the sum is exact.
TEST(PipelineCuda, AllDevicesShareTheWork) {
  PERFTKIT_REQUIRE_DEVICE();
  PipelineOptions options = on_gpu();
  options.batch_nodes = 16;
  const PipelineReport report = pipeline_perft(position_from_fen("startpos"), 7, false, options);
  EXPECT_EQ(str(report.nodes), "3195901860");
  EXPECT_EQ(report.counters.devices, cuda::device_count());
}

// A session keeps each device's stream, table and level buffers from run to run (a work
// dir's shards): a second run of the same count finds its subtrees at the top, another
// position and another table seed (a fresh table) stay exact, and so does a FrontierCounter
// counting two shards and then the whole frontier.
TEST(PipelineCuda, ASessionCarriesItsTableFromRunToRun) {
  PERFTKIT_REQUIRE_DEVICE();
  cuda::CudaSession session;
  PipelineOptions options = on_gpu();
  options.hash_bytes = std::size_t(64) << 20;
  options.cuda_session = &session;
  const Position start = position_from_fen("startpos");
  const PipelineReport first = pipeline_perft(start, 6, false, options);
  EXPECT_EQ(str(first.nodes), "119060324");
  const PipelineReport second = pipeline_perft(start, 6, false, options);
  EXPECT_EQ(str(second.nodes), "119060324");
  EXPECT_LT(second.counters.leaf_nodes, first.counters.leaf_nodes / 10);
  EXPECT_EQ(second.counters.table_bytes, first.counters.table_bytes);
  EXPECT_EQ(str(pipeline_perft(position_from_fen(KIWIPETE), 5, false, options).nodes), "193690690");
  options.hash_seed = 7;
  EXPECT_EQ(str(pipeline_perft(start, 6, false, options).nodes), "119060324");

  PerftRequest settings;
  settings.backend = Backend::CUDA;
  settings.hash_bytes = std::size_t(64) << 20;
  FrontierCounter counter(settings);
  const std::vector<FrontierNode> nodes = expand_frontier(position_from_fen(POSITION3), 2, false);
  const std::vector<FrontierNode> front(nodes.begin(), nodes.begin() + nodes.size() / 2),
      back(nodes.begin() + nodes.size() / 2, nodes.end());
  const u128 halves = counter.count(front, 5, false, 1)[0] + counter.count(back, 5, false, 1)[0];
  EXPECT_EQ(str(halves), str(counter.count(nodes, 5, false, 1)[0]));
  EXPECT_EQ(str(halves), "178633661");
}

// The transposition-table mode on the GPU: hash on equals hash off and the published count,
// with a roomy table, a one-bucket table (constant replacement and racing writes to the same
// words) and tiny chunks; and a table from a run kept apart from the next run's.
TEST(PipelineCuda, HashOnMatchesHashOff) {
  PERFTKIT_REQUIRE_DEVICE();
  const struct {
    const char* fen;
    int depth;
    const char* nodes;
  } cases[] = {{"startpos", 6, "119060324"},
               {KIWIPETE, 5, "193690690"},
               {POSITION3, 7, "178633661"},
               {POSITION4, 6, "706045033"}};
  for (const auto& c : cases) {
    const Position root = position_from_fen(c.fen);
    PipelineOptions options = on_gpu();
    const PipelineReport off = pipeline_perft(root, c.depth, false, options);
    EXPECT_EQ(str(off.nodes), c.nodes) << c.fen;
    EXPECT_EQ(off.counters.table_probes, 0u);
    for (std::size_t bytes : {std::size_t(256) << 20, std::size_t(64)}) {
      options.hash_bytes = bytes;
      const PipelineReport on = pipeline_perft(root, c.depth, false, options);
      EXPECT_EQ(str(on.nodes), c.nodes) << c.fen << ", " << bytes << " bytes";
      EXPECT_GT(on.counters.table_probes, 0u);
      EXPECT_EQ(on.counters.fallback_batches, 0u);
    }
  }
  PipelineOptions tiny = on_gpu();
  tiny.hash_bytes = 1 << 20;
  tiny.hash_index_mask = 0xF;
  tiny.host_plies = 2;
  tiny.batch_nodes = 16;
  tiny.max_chunk_nodes = 1000;
  tiny.memory_budget = 8 << 20;
  EXPECT_EQ(str(pipeline_perft(position_from_fen(KIWIPETE), 5, false, tiny).nodes), "193690690");
}

// The statistics mode on the GPU: every counter equals the OpenMP system's (itself checked
// against published tables and the CPU core), at clocks where merging must keep clocks apart.
TEST(PipelineCuda, StatisticsMatchTheOmpSystem) {
  PERFTKIT_REQUIRE_DEVICE();
  const struct {
    const char* fen;
    int depth;
  } cases[] = {{KIWIPETE, 4},
               {POSITION3, 6},
               {POSITION4, 5},
               {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 95 40", 5},
               {"8/8/3k4/8/1r6/8/4K3/R7 w - - 145 120", 6}};
  for (const auto& c : cases) {
    const Position root = position_from_fen(c.fen);
    PipelineOptions options = on_gpu();
    options.host_plies = 1;
    const PipelineStatsReport gpu = pipeline_perft_stats(root, c.depth, true, options);
    options.system = PipelineSystem::OMP;
    const PipelineStatsReport omp = pipeline_perft_stats(root, c.depth, true, options);
    EXPECT_EQ(gpu.system, "cuda");
    ASSERT_EQ(gpu.divide.size(), omp.divide.size());
    for (int f = 0; f < STAT_FIELD_NB; ++f) {
      EXPECT_EQ(str(gpu.stats[StatField(f)]), str(omp.stats[StatField(f)]))
          << c.fen << " " << stat_json_name(StatField(f));
      for (std::size_t m = 0; m < gpu.divide.size(); ++m)
        EXPECT_EQ(str(gpu.divide[m][StatField(f)]), str(omp.divide[m][StatField(f)])) << c.fen << " move " << m;
    }
  }
  const StatsTotals kiwipete = pipeline_perft_stats(position_from_fen(KIWIPETE), 5, false, on_gpu()).stats;
  EXPECT_EQ(str(kiwipete[NODES]), "193690690");
  EXPECT_EQ(str(kiwipete[CAPTURES]), "35043416");
  EXPECT_EQ(str(kiwipete[CHECKS]), "3309887");
  EXPECT_EQ(str(kiwipete[DOUBLE_CHECKS] - kiwipete[DOUBLE_CHECKMATES]), "2637");
  EXPECT_EQ(str(kiwipete[CHECKMATES]), "30171");
}

// The shared suites at the CI depths of the OpenMP test, on the GPU.
TEST(PipelineCuda, SharedSuitesMatchPublishedCounts) {
  PERFTKIT_REQUIRE_DEVICE();
  const std::filesystem::path dir = std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no shared perft data at " << dir;
  PipelineOptions options = on_gpu();
  options.host_plies = 1;
  std::size_t checked = 0;
  for (const char* name :
       {"standard.epd", "perft.epd", "perft-ferdy-double-checks.epd", "tricky.perft", "fischer.epd"}) {
    const SuiteFileResult suite = read_suite(dir / name, name);
    ASSERT_TRUE(suite) << suite.error;
    for (const SuiteCase& c : suite->cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
      for (const ExpectedCount& e : c.expected) {
        if (e.nodes > 2'000'000) continue;
        ASSERT_EQ(str(pipeline_perft(parsed->position, e.depth, false, options).nodes), str(e.nodes))
            << c.source << " depth " << e.depth;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 3000u);
}

}  // namespace
}  // namespace perftkit

#endif  // PERFTKIT_HAVE_CUDA
