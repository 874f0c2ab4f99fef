// The pipeline's statistics table mode (pipeline/stats_subtrees.hpp) on Thrust's OpenMP
// system: every counter against published rows and against the CPU core without a table,
// near the 50- and 75-move lines, in tiny tables, chunks and budgets with colliding sort
// keys, a table kept across runs, the CPU fallback, the driver and the CLI.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "perft/driver.hpp"
#include "perft/stats_table.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/frontier.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/stats_totals.hpp"
#include "support/cli_runner.hpp"
#include "support/stats_reference.hpp"
#include "support/pipeline_root_runs.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

// Leaves of these reach 100 and 150 half-moves, where a position's clock enters its key.
constexpr const char* START_CLOCK_95 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 95 40";
constexpr const char* ROOKS_CLOCK_145 = "8/8/3k4/8/1r6/8/4K3/R7 w - - 145 120";

using testing_support::cpu_stats;
using testing_support::describe;

// The pipeline through `table` (a view the test owns), the host frontier one ply deep so
// that the system runs every level below it.
PipelineStatsReport through_table(const Position& root, int depth, StatsTableView table, PipelineOptions options = {}) {
  options.stats_table = table;
  if (!options.host_plies) options.host_plies = 1;
  return pipeline_perft_stats(root, depth, false, options);
}

// Published rows (Chess Programming Wiki): start position 5 and Kiwipete 4, in a 1 MB table,
// a batch per frontier node (merging finds a batch's own transpositions; the table finds
// those of earlier batches).
TEST(PipelineStatsTable, PublishedRows) {
  StatsTable table(std::size_t(1) << 20);
  PipelineOptions batch_per_node;
  batch_per_node.batch_nodes = 1;
  const PipelineStatsReport start = through_table(position_from_fen("startpos"), 5, table.view(), batch_per_node);
  EXPECT_EQ(to_string_u128(start.stats[NODES]), "4865609");
  EXPECT_EQ(to_string_u128(start.stats[CAPTURES]), "82719");
  EXPECT_EQ(to_string_u128(start.stats[EN_PASSANT_CAPTURES]), "258");
  EXPECT_EQ(to_string_u128(start.stats[CHECKS]), "27351");
  EXPECT_EQ(to_string_u128(start.stats[DISCOVERED_CHECKS]), "6");
  EXPECT_EQ(to_string_u128(start.stats[CHECKMATES]), "347");
  EXPECT_GT(start.counters.table_hits, 0u);
  EXPECT_GT(start.counters.table_probes, start.counters.table_hits);

  StatsTable fresh(std::size_t(1) << 20);
  const StatsTotals kiwi = through_table(position_from_fen(KIWIPETE), 4, fresh.view()).stats;
  EXPECT_EQ(to_string_u128(kiwi[NODES]), "4085603");
  EXPECT_EQ(to_string_u128(kiwi[CAPTURES]), "757163");
  EXPECT_EQ(to_string_u128(kiwi[EN_PASSANT_CAPTURES]), "1929");
  EXPECT_EQ(to_string_u128(kiwi[CASTLES]), "128013");
  EXPECT_EQ(to_string_u128(kiwi[PROMOTIONS]), "15172");
  EXPECT_EQ(to_string_u128(kiwi[CHECKS]), "25523");
  EXPECT_EQ(to_string_u128(kiwi[CHECKMATES]), "43");
}

// Every counter, draws and clocks included, equals the core's without a table: positions
// near the clock lines, dead material, promotions; a 64 KB and an 8 MB table, two seeds,
// merged and unmerged levels.
TEST(PipelineStatsTable, EveryCounterEqualsTheCoreWithoutATable) {
  const char* fens[] = {START_CLOCK_95,
                        ROOKS_CLOCK_145,
                        "4k3/8/8/8/8/8/4P3/4K3 w - - 96 60",
                        "8/8/8/8/2k5/8/3Kp3/6N1 w - - 95 80",
                        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                        KIWIPETE,
                        POSITION3,
                        POSITION4,
                        POSITION5};
  for (const char* fen : fens) {
    const Position root = position_from_fen(fen);
    for (int depth = 3; depth <= 4; ++depth) {
      const std::string reference = describe(cpu_stats(root, depth));
      for (const std::size_t bytes : {std::size_t(64) << 10, std::size_t(8) << 20})
        for (const std::uint64_t seed : {1, 2})
          for (const bool merge : {true, false}) {
            StatsTable table(bytes);
            PipelineOptions options;
            options.hash_seed = seed;
            options.merge = merge;
            EXPECT_EQ(describe(through_table(root, depth, table.view(), options).stats), reference)
                << fen << " depth " << depth << ", " << bytes << " bytes, seed " << seed << ", merge " << merge;
          }
    }
  }
}

// One bucket for every key, every sort key equal, chunks of at most 50 children, batches of
// 7 nodes and 2 MB of buffers: entries displace each other and merging rests on the exact
// compare alone, and every counter stays exact.
TEST(PipelineStatsTable, OneBucketCollidingKeysAndTinyChunks) {
  for (const char* fen : {START_CLOCK_95, KIWIPETE}) {
    const Position root = position_from_fen(fen);
    SubtreeBucket bucket{};
    PipelineOptions options;
    options.key_mask = 0;
    options.max_chunk_nodes = 50;
    options.batch_nodes = 7;
    options.memory_budget = 2 << 20;
    const PipelineStatsReport report = through_table(root, 5, StatsTableView{&bucket, 1}, options);
    EXPECT_EQ(describe(report.stats), describe(cpu_stats(root, 5))) << fen;
    EXPECT_GT(report.counters.chunks, 20u) << fen;
  }
}

// One position at two clocks in one frontier: its children meet at clocks 98 and 41, which
// the 50-move counter tells apart within three plies, so they neither merge nor share an
// entry; a second run finds both in the table.
TEST(PipelineStatsTable, OnePositionAtTwoClocksIsTwoSubtrees) {
  const Position late = position_from_fen("8/8/3k4/8/1r6/8/4K3/R7 w - - 97 120");
  const Position early = position_from_fen("8/8/3k4/8/1r6/8/4K3/R7 w - - 40 120");
  const std::vector<FrontierNode> frontier = {{late, 1, 0}, {early, 3, 0}};
  StatsTotals reference = cpu_stats(late, 4);
  const StatsTotals early_stats = cpu_stats(early, 4);
  for (int f = 0; f < STAT_FIELD_NB; ++f) reference.count[f] += 3 * early_stats.count[f];
  ASSERT_GT(reference[CLOCK_100], 0u);
  StatsTable table(std::size_t(1) << 20);
  PipelineOptions options;
  options.stats_table = table.view();
  for (int run = 0; run < 2; ++run) {
    PipelineCounters counters;
    const std::vector<StatsTotals> totals =
        pipeline_count_frontier<pipeline::CountStats>(frontier, 4, false, 1, options, &counters);
    EXPECT_EQ(describe(totals[0]), describe(reference)) << "run " << run;
    if (run == 1) EXPECT_EQ(counters.table_hits, 2u);
  }
}

// A table kept from one run to the next: the second run finds every frontier node's subtree.
// One thread: with more, two stores racing for one bucket may keep either entry.
TEST(PipelineStatsTable, ATableKeptAcrossRunsIsReused) {
  const Position root = position_from_fen(POSITION4);
  StatsTable table(std::size_t(8) << 20);
  PipelineOptions one_thread;
  one_thread.threads = 1;
  const PipelineStatsReport first = through_table(root, 4, table.view(), one_thread);
  const PipelineStatsReport second = through_table(root, 4, table.view(), one_thread);
  EXPECT_EQ(describe(second.stats), describe(first.stats));
  EXPECT_EQ(describe(second.stats), describe(cpu_stats(root, 4)));
  EXPECT_GT(second.counters.table_probes, 0u);
  EXPECT_EQ(second.counters.table_hits, second.counters.table_probes);
  EXPECT_LT(first.counters.table_hits, first.counters.table_probes);
}

// Buffers too small for one position's children: every frontier node goes to the CPU core.
TEST(PipelineStatsTable, StarvedMemoryFallsBackExactly) {
  const Position root = position_from_fen(START_CLOCK_95);
  StatsTable table(std::size_t(1) << 20);
  PipelineOptions starved;
  starved.host_plies = 2;
  starved.memory_budget = 6 << 10;
  const PipelineStatsReport report = through_table(root, 5, table.view(), starved);
  EXPECT_EQ(describe(report.stats), describe(cpu_stats(root, 5)));
  EXPECT_EQ(report.counters.fallback_batches, report.counters.host_frontier);
}

// ---- the driver and the CLI --------------------------------------------------------------

TEST(PipelineStatsTableDriver, DivideAndTwoSeedsMatchTheCpuCore) {
  PerftRequest req;
  req.root = position_from_fen(POSITION5);
  req.depth = 4;
  req.stats = true;
  req.divide = true;
  req.backend = Backend::CPU;
  const PerftReport cpu = run_perft(req);
  req.backend = Backend::PIPELINE;
  req.hash_bytes = 1 << 20;
  for (const std::uint64_t seed : {1, 2}) {
    req.hash_seed = seed;
    const PerftReport pipeline = run_perft(req);
    EXPECT_EQ(pipeline.backend, "pipeline");
    EXPECT_GT(pipeline.stats_table.probes, 0u);
    EXPECT_EQ(describe(pipeline.stats), describe(cpu.stats)) << "seed " << seed;
    ASSERT_EQ(pipeline.divide.size(), cpu.divide.size());
    for (std::size_t m = 0; m < cpu.divide.size(); ++m)
      EXPECT_EQ(describe(pipeline.divide[m].stats), describe(cpu.divide[m].stats)) << cpu.divide[m].uci;
  }
}

// A frontier counter (a work dir's shards) keeps its statistics table from count to count.
TEST(PipelineStatsTableDriver, FrontierCounterKeepsItsTable) {
  PerftRequest settings;
  settings.backend = Backend::PIPELINE;
  settings.hash_bytes = 1 << 20;
  FrontierCounter counter(settings);
  const std::vector<FrontierNode> nodes = expand_frontier(position_from_fen(POSITION3), 1, false);
  const Position root = position_from_fen(POSITION3);
  const std::string reference = describe(cpu_stats(root, 6));
  EXPECT_EQ(describe(counter.count_stats(nodes, 5)), reference);
  EXPECT_EQ(counter.table_bytes(), std::size_t(1) << 20);
  EXPECT_EQ(describe(counter.count_stats(nodes, 5)), reference);
  EXPECT_EQ(counter.backend_name(), std::string("pipeline"));
}

TEST(PipelineStatsTableCli, CrossCheckOnThePipeline) {
  using testing_support::run_perftkit;
  const auto checked = run_perftkit("perft --backend pipeline --stats --hash 1 --seed 3 --cross-check -d 5 --fen '" +
                                    std::string(KIWIPETE) + "'");
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  EXPECT_NE(checked.output.find("Nodes searched: 193690690"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("cross-check: seeds 3 and 4 agree"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("statistics table: "), std::string::npos) << checked.output;
}

}  // namespace
}  // namespace perftkit
