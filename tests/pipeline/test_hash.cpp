// The pipeline's transposition-table mode (host/pipeline/subtrees.hpp) on Thrust's OpenMP
// system: per-node subtree counts through a lossy table must give the published counts and
// the CPU core's, whatever the table does: one bucket, every key in one bucket, tiny chunks
// and budgets, several batches, divide, corrupted entries. Expected values come from
// published counts or the recursive core, never from the pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "notation/fen.hpp"
#include "pipeline/frontier.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "pipeline/pipeline.hpp"
#include "support/pipeline_root_runs.hpp"
#include "pipeline/subtree_functors.hpp"
#include "support/standard_positions.hpp"
#include "pipeline/subtree_table.hpp"
#include "notation/suite.hpp"
#include "support/suite_ci_depth.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

std::string str(u128 v) { return to_string_u128(v); }

PipelineOptions hashed(std::size_t bytes) {
  PipelineOptions options;
  options.hash_bytes = bytes;
  options.hash_seed = 7;
  return options;
}

// ---- the table view --------------------------------------------------------------------

TEST(PipelineHashTable, StoresAndFindsCountsByKeyAndDepth) {
  const SubtreeTable table(1 << 12);
  EXPECT_EQ(table.bytes(), 1u << 12);
  const SubtreeTableView view = table.view();
  const PositionKey key{0x1234'5678'9ABC'DEF0ULL, 0x0FED'CBA9'8765'4321ULL};
  std::uint64_t count = 0;
  EXPECT_FALSE(view.probe(key, 3, count)) << "a fresh table is empty";
  view.store(key, 3, 8902);
  ASSERT_TRUE(view.probe(key, 3, count));
  EXPECT_EQ(count, 8902u);
  EXPECT_FALSE(view.probe(key, 4, count)) << "another depth is another subtree";
  EXPECT_FALSE(view.probe(PositionKey{key.lo, key.hi ^ 1}, 3, count)) << "the whole 128-bit key is verified";
  EXPECT_FALSE(view.probe(PositionKey{key.lo ^ 1, key.hi}, 3, count));
}

// Five keys of one deep bucket (four slots): the deepest stays while shallow ones take
// turns in the rest, and the newest is always found.
TEST(PipelineHashTable, ReplacementKeepsTheDeeperEntry) {
  const SubtreeTable table(64);
  const SubtreeTableView view = table.view();
  EXPECT_EQ(view.layout.buckets(), 1u);
  EXPECT_EQ(view.layout.two_ply_groups, 0u) << "a small table keeps every depth in deep buckets";
  const PositionKey deep{1, 2};
  view.store(deep, 6, 600);
  std::uint64_t count = 0;
  int shallow_found = 0;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const PositionKey shallow{3 + 2 * k, (k + 1) << 40};
    view.store(shallow, 2, 20 + k);
    ASSERT_TRUE(view.probe(shallow, 2, count)) << "shallow key " << k;
    EXPECT_EQ(count, 20 + k);
    ASSERT_TRUE(view.probe(deep, 6, count)) << "after shallow key " << k;
    EXPECT_EQ(count, 600u);
  }
  for (std::uint64_t k = 0; k < 6; ++k) shallow_found += view.probe(PositionKey{3 + 2 * k, (k + 1) << 40}, 2, count);
  EXPECT_EQ(shallow_found, 3) << "three slots for the shallow keys";
}

// Any one word of a slot changed (a torn or racing write) reads as a miss.
TEST(PipelineHashTable, ACorruptedEntryReadsAsAMiss) {
  const SubtreeTable table(64);
  const SubtreeTableView view = table.view();
  DeepBucket& bucket = view.deep_bucket(0);
  const PositionKey key{0xABCDEF, 0x123456};
  const auto slot_of_key = [&] {
    for (int i = 0; i < 4; ++i)
      if (bucket.stored[i]) return i;
    return -1;
  };
  for (int word = 0; word < 3; ++word) {
    bucket = DeepBucket{};
    view.store(key, 5, 1'000'000);
    std::uint64_t count = 0;
    ASSERT_TRUE(view.probe(key, 5, count));
    const int i = slot_of_key();
    ASSERT_GE(i, 0);
    if (word == 0) bucket.check[i] ^= 1;
    if (word == 1) bucket.stored[i] ^= 1;                       // the count
    if (word == 2) bucket.stored[i] ^= std::uint64_t(1) << 56;  // the depth: 5 becomes 4
    EXPECT_FALSE(view.probe(key, 5, count)) << "word " << word;
    if (word == 2) {
      EXPECT_FALSE(view.probe(key, 4, count)) << "nor as the depth it now names";
    }
  }
  // A count and a check word from two writes of the same key never verify together.
  bucket = DeepBucket{};
  view.store(key, 3, 5);
  const int i = slot_of_key();
  ASSERT_GE(i, 0);
  const std::uint64_t stored_word = bucket.stored[i];
  view.store(key, 3, 6);
  bucket.stored[i] = stored_word;
  std::uint64_t count = 0;
  EXPECT_FALSE(view.probe(key, 3, count));
}

// From 8 MiB up two-ply subtrees have their own buckets, six to a bucket: a count there is
// found under its whole key only, and a count too big for a slot is not kept.
TEST(PipelineHashTable, TwoPlySubtreesHaveTheirOwnSlots) {
  const SubtreeTable table(std::size_t(16) << 20);
  const SubtreeTableView view = table.view();
  ASSERT_GT(view.layout.two_ply_groups, 0u);
  EXPECT_EQ(table.bytes(), std::size_t(16) << 20);
  const PositionKey key{0x0123'4567'89AB'CDEFULL, 0xFEDC'BA98'7654'3210ULL};
  view.store(key, 2, 4242);
  std::uint64_t count = 0;
  ASSERT_TRUE(view.probe(key, 2, count));
  EXPECT_EQ(count, 4242u);
  EXPECT_FALSE(view.probe(key, 3, count)) << "another depth is another subtree";
  EXPECT_FALSE(view.probe(PositionKey{key.lo, key.hi ^ 1}, 2, count));
  const PositionKey big{key.lo ^ 0x10000, key.hi};
  view.store(big, 2, SubtreeTableLayout::MAX_TWO_PLY_COUNT + 1);
  EXPECT_FALSE(view.probe(big, 2, count)) << "too big for a two-ply slot: not kept";
  view.store(big, 3, SubtreeTableLayout::MAX_TWO_PLY_COUNT + 1);
  ASSERT_TRUE(view.probe(big, 3, count)) << "a deeper subtree keeps a wide count";
  EXPECT_EQ(count, SubtreeTableLayout::MAX_TWO_PLY_COUNT + 1);
}

// A parent whose children's counts sum past 64 bits saturates, and is not stored.
TEST(PipelineHashTable, SaturatedSumsAreNeverStored) {
  const SubtreeTable table(1 << 12);
  const Position parent = position_from_fen("startpos");
  const std::uint64_t offsets[2] = {0, 2};
  const std::uint64_t representative[2] = {0, 1};
  const std::uint64_t child_counts[2] = {std::uint64_t(1) << 63, std::uint64_t(1) << 63};
  std::uint64_t counts[1] = {pipeline::UNKNOWN_COUNT};
  const KeySet keys(3);
  const pipeline::SumChildSubtrees sum{&parent,      offsets, 0, representative, child_counts, counts,
                                       table.view(), keys,    4};
  sum(0);
  EXPECT_EQ(counts[0], pipeline::SATURATED);
  std::uint64_t found = 0;
  EXPECT_FALSE(table.view().probe(position_key(parent, keys), 4, found));
}

// ---- counts against published ones -------------------------------------------------------

class PipelineHashKnown : public ::testing::TestWithParam<PublishedCount> {};

// A roomy table, a 4 KiB one (constant replacement) and one bucket: the published count,
// the same as without a table.
TEST_P(PipelineHashKnown, AnyTableSizeGivesThePublishedCount) {
  const PublishedCount& k = GetParam();
  const Position root = position_from_fen(k.fen);
  for (std::size_t bytes : {std::size_t(16) << 20, std::size_t(4) << 10, std::size_t(64)}) {
    PipelineOptions options = hashed(bytes);
    options.host_plies = 1;
    const PipelineReport report = pipeline_perft(root, k.depth, false, options);
    EXPECT_EQ(str(report.nodes), str(k.nodes)) << bytes << " bytes";
    if (k.depth > 2) {
      EXPECT_GT(report.counters.table_probes, 0u);
    }
  }
  PipelineOptions off;
  off.host_plies = 1;
  const PipelineReport unhashed = pipeline_perft(root, k.depth, false, off);
  EXPECT_EQ(str(unhashed.nodes), str(k.nodes));
  EXPECT_EQ(unhashed.counters.table_probes, 0u);
}

INSTANTIATE_TEST_SUITE_P(Omp, PipelineHashKnown, ::testing::ValuesIn(CI_DEPTH_COUNTS),
                         [](const auto& param_info) { return std::string(param_info.param.name) + "_hash_omp"; });

class PipelineHashSharedSuite : public ::testing::TestWithParam<const char*> {};

// Every case of a shared suite at its CI depth through a 64 KiB table (replacement all the
// time), against the published count and the CPU core.
TEST_P(PipelineHashSharedSuite, MatchesPublishedCounts) {
  const std::filesystem::path path = shared_suite_path(GetParam());
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared perft data at " << path;
  PipelineOptions options = hashed(64 << 10);
  options.host_plies = 1;
  options.hash_seed = std::hash<std::string>{}(GetParam());
  expect_suite_at_ci_depths(
      path, [&](const Position& position, int depth) { return pipeline_perft(position, depth, false, options).nodes; });
}

INSTANTIATE_TEST_SUITE_P(Omp, PipelineHashSharedSuite,
                         ::testing::Values("standard.epd", "perft.epd", "perft-ferdy-double-checks.epd", "tricky.perft",
                                           "fischer.epd"),
                         [](const auto& param_info) { return suite_test_name(param_info.param) + "_hash_omp"; });

// ---- collisions, chunks, budgets ---------------------------------------------------------

// Every table key in one bucket of a big table, and every sort key equal: nothing but the
// full key and position compares stand between the table and a wrong count.
TEST(PipelineHash, AllKeysInOneBucketAndCollidingSortKeys) {
  const Position root = position_from_fen(KIWIPETE);
  PipelineOptions options = hashed(1 << 20);
  options.host_plies = 1;
  options.hash_index_mask = 0;
  EXPECT_EQ(str(pipeline_perft(root, 4, false, options).nodes), "4085603");
  options.key_mask = 0;
  EXPECT_EQ(str(pipeline_perft(position_from_fen("startpos"), 5, false, options).nodes), "4865609");
}

// Children expanded a few at a time in small level buffers: a parent's children, and the
// children its slots point at, cross chunk boundaries; the sums stay exact.
TEST(PipelineHash, TinyChunksAndBudgetsGiveTheSameCount) {
  const Position root = position_from_fen(KIWIPETE);
  for (std::size_t chunk : {std::size_t(1), std::size_t(7), std::size_t(100)}) {
    PipelineOptions options = hashed(4 << 10);
    options.host_plies = 1;
    options.max_chunk_nodes = chunk;
    options.memory_budget = 2 << 20;
    const PipelineReport report = pipeline_perft(root, 4, false, options);
    EXPECT_EQ(str(report.nodes), "4085603") << "chunks of " << chunk;
    EXPECT_GT(report.counters.chunks, 20u);
    EXPECT_EQ(report.counters.fallback_batches, 0u);
  }
  PipelineOptions small = hashed(1 << 20);
  small.host_plies = 1;
  small.memory_budget = 16 << 10;
  const PipelineReport report = pipeline_perft(position_from_fen(POSITION4), 5, false, small);
  EXPECT_EQ(str(report.nodes), "15833292");
  EXPECT_GT(report.counters.chunks, 10u);
}

// Level buffers too small for anything: batches split, then go to the CPU core; exact.
TEST(PipelineHash, ExhaustedMemoryStillCountsExactly) {
  const Position root = position_from_fen("startpos");
  PipelineOptions options = hashed(1 << 20);
  options.host_plies = 2;
  options.memory_budget = 40 << 10;
  const PipelineReport split = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(split.nodes), "4865609");
  EXPECT_GT(split.counters.batches, 1u);
  options.memory_budget = 1 << 10;
  const PipelineReport fallback = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(fallback.nodes), "4865609");
  EXPECT_GT(fallback.counters.fallback_batches, 0u);
}

// Unmerged levels still sum each parent's own children.
// The last interior level as child slots (the default) or as merged positions: the same
// published counts, and only the positions merge there (its transpositions, three plies
// below the frontier, are table hits for the slots).
TEST(PipelineHash, SlotsAndMergedPositionsGiveTheSameCount) {
  const std::vector<std::pair<const char*, int>> cases = {{KIWIPETE, 5}, {POSITION4, 5}, {"startpos", 5}};
  const std::vector<std::string> published = {"193690690", "15833292", "4865609"};
  for (std::size_t c = 0; c < cases.size(); ++c) {
    PipelineOptions options = hashed(1 << 20);
    options.host_plies = 1;
    const PipelineReport slots = pipeline_perft(position_from_fen(cases[c].first), cases[c].second, false, options);
    options.slots = false;
    const PipelineReport positions = pipeline_perft(position_from_fen(cases[c].first), cases[c].second, false, options);
    EXPECT_EQ(str(slots.nodes), published[c]) << cases[c].first;
    EXPECT_EQ(str(positions.nodes), published[c]) << cases[c].first;
    EXPECT_GT(positions.counters.merged_away, slots.counters.merged_away) << cases[c].first;
  }
}

TEST(PipelineHash, UnmergedLevelsGiveTheSameCount) {
  PipelineOptions options = hashed(64 << 10);
  options.merge = false;
  options.host_plies = 1;
  EXPECT_EQ(str(pipeline_perft(position_from_fen(POSITION5), 4, false, options).nodes), "2103487");
}

// ---- batches, runs, divide ---------------------------------------------------------------

// One position twice, in two batches: the second batch finds the first one's count at the
// top and expands nothing. One thread: with more, slots of one chunk race to store and probe
// their shared transpositions, so the hits of a batch vary from run to run.
TEST(PipelineHash, LaterBatchesHitEarlierOnes) {
  const Position kiwipete = position_from_fen(KIWIPETE);
  const std::vector<FrontierNode> once = {{kiwipete, 1, 0}};
  const std::vector<FrontierNode> twice = {{kiwipete, 1, 0}, {kiwipete, 5, 0}};
  PipelineOptions options = hashed(16 << 20);
  options.batch_nodes = 1;
  options.threads = 1;
  PipelineCounters one{}, two{};
  EXPECT_EQ(str(pipeline_count_frontier<pipeline::CountNodes>(once, 4, false, 1, options, &one)[0]), "4085603");
  EXPECT_EQ(str(pipeline_count_frontier<pipeline::CountNodes>(twice, 4, false, 1, options, &two)[0]),
            str(u128(6) * 4085603));
  EXPECT_EQ(two.batches, 2u);
  EXPECT_EQ(two.generated, one.generated);
  EXPECT_EQ(two.table_hits, one.table_hits + 1);
}

// Many small batches of a merged frontier: transpositions between batches are hits.
TEST(PipelineHash, ManyBatchesShareTheTable) {
  const Position root = position_from_fen("startpos");
  PipelineOptions options = hashed(16 << 20);
  options.host_plies = 2;
  options.batch_nodes = 16;
  const PipelineReport report = pipeline_perft(root, 6, false, options);
  EXPECT_EQ(str(report.nodes), "119060324");
  EXPECT_EQ(report.counters.batches, 25u);  // 400 nodes at ply 2
  EXPECT_GT(report.counters.table_hits, 0u);
  PipelineOptions off;
  off.host_plies = 2;
  off.batch_nodes = 16;
  EXPECT_LT(report.counters.generated, pipeline_perft(root, 6, false, off).counters.generated);
}

// A table handed in is kept across runs: the second run finds (nearly) everything.
TEST(PipelineHash, ATableKeptAcrossRunsIsReused) {
  SubtreeTable table(16 << 20);
  PipelineOptions options;
  options.omp_table = &table;
  options.host_plies = 1;
  const Position root = position_from_fen(POSITION5);
  const PipelineReport first = pipeline_perft(root, 4, false, options);
  const PipelineReport second = pipeline_perft(root, 4, false, options);
  EXPECT_EQ(str(first.nodes), "2103487");
  EXPECT_EQ(str(second.nodes), "2103487");
  EXPECT_EQ(second.counters.table_bytes, table.bytes());
  EXPECT_LT(second.counters.generated * 10, first.counters.generated);
}

// Every stored count flipped between two runs over one table: the second run reads each
// entry as a miss and counts everything again, exactly. One thread, so that the two runs'
// hits are comparable (see LaterBatchesHitEarlierOnes).
TEST(PipelineHash, CorruptedTableEntriesAreMisses) {
  SubtreeTable table(1 << 20);
  PipelineOptions options;
  options.omp_table = &table;
  options.host_plies = 1;
  options.threads = 1;
  const Position root = position_from_fen(KIWIPETE);
  const PipelineReport first = pipeline_perft(root, 4, false, options);
  ASSERT_EQ(str(first.nodes), "4085603");
  const SubtreeTableView view = table.view();
  std::size_t corrupted = 0;
  for (std::uint64_t b = 0; b < view.layout.two_ply_buckets(); ++b)
    for (std::uint16_t& stored : view.two_ply_bucket(b).stored)
      if (stored) {
        stored ^= 0x40;
        ++corrupted;
      }
  for (std::uint64_t b = 0; b < view.layout.deep_buckets; ++b)
    for (std::uint64_t& stored : view.deep_bucket(b).stored)
      if (stored) {
        stored ^= 0x40;
        ++corrupted;
      }
  ASSERT_GT(corrupted, 1000u);
  const PipelineReport second = pipeline_perft(root, 4, false, options);
  EXPECT_EQ(str(second.nodes), "4085603");
  EXPECT_EQ(second.counters.table_hits, first.counters.table_hits) << "only the run's own entries hit";
  EXPECT_EQ(second.counters.generated, first.counters.generated);
}

TEST(PipelineHash, DivideMatchesTheCpuCore) {
  const Position root = position_from_fen(POSITION4);
  PipelineOptions options = hashed(64 << 10);
  options.batch_nodes = 50;
  const PipelineReport report = pipeline_perft(root, 4, true, options);
  EXPECT_EQ(str(report.nodes), "422333");
  const std::vector<Move> moves = root_moves(root);
  ASSERT_EQ(report.divide.size(), moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m)
    EXPECT_EQ(str(report.divide[m]), str(perft(make_move(root, moves[m]), 3))) << "root move " << m;
}

// Multiplicities near 2^64 times table counts: 128-bit totals.
TEST(PipelineHash, TotalsAreExactBeyondSixtyFourBits) {
  const std::uint64_t big = ~std::uint64_t(0) - 1;
  const std::vector<FrontierNode> frontier = {{position_from_fen("startpos"), big, 0},
                                              {position_from_fen(KIWIPETE), 3, 0}};
  const std::vector<u128> totals =
      pipeline_count_frontier<pipeline::CountNodes>(frontier, 3, false, 1, hashed(1 << 20));
  EXPECT_EQ(str(totals[0]), str(u128(big) * 8902 + 3 * 97862));
}

// ---- the driver and the CLI --------------------------------------------------------------

TEST(PipelineHashDriver, PipelineBackendRunsWithTheTableForCountsAndStatistics) {
  PerftRequest req;
  req.root = position_from_fen(KIWIPETE);
  req.depth = 4;
  req.backend = Backend::PIPELINE;
  req.hash_bytes = 16 << 20;
  EXPECT_TRUE(runs_with_hash_table(req));
  EXPECT_EQ(hash_table_bytes(req), req.hash_bytes);
  EXPECT_EQ(str(run_perft(req).nodes), "4085603");
  req.hash_seed = 2;
  EXPECT_EQ(str(run_perft(req).nodes), "4085603");
  req.stats = true;  // statistics through their own table (stats_subtrees.hpp)
  EXPECT_TRUE(runs_with_hash_table(req));
  EXPECT_EQ(hash_table_bytes(req), req.hash_bytes);
  const PerftReport stats = run_perft(req);
  EXPECT_EQ(str(stats.nodes), "4085603");
  EXPECT_GT(stats.stats_table.probes, 0u);
  req.depth = 2;  // too shallow for a table
  EXPECT_FALSE(runs_with_hash_table(req));
}

// A frontier counter on the pipeline keeps its table from one count to the next.
TEST(PipelineHashDriver, FrontierCounterKeepsItsTable) {
  PerftRequest settings;
  settings.backend = Backend::PIPELINE;
  settings.hash_bytes = 1 << 20;
  FrontierCounter counter(settings);
  const std::vector<FrontierNode> nodes = expand_frontier(position_from_fen(POSITION3), 1, false);
  EXPECT_EQ(str(counter.count(nodes, 5, false, 1)[0]), "11030083");
  EXPECT_EQ(counter.table_bytes(), std::size_t(1) << 20);
  EXPECT_EQ(str(counter.count(nodes, 5, false, 1)[0]), "11030083");
}

TEST(CliPipelineHash, PerftWithHashOnThePipeline) {
  using testing_support::run_perftkit;
  const auto hashed_run = run_perftkit("perft --backend pipeline --hash 16 -d 5");
  EXPECT_EQ(hashed_run.exit_code, 0) << hashed_run.output;
  EXPECT_NE(hashed_run.output.find("Nodes searched: 4865609"), std::string::npos) << hashed_run.output;
  EXPECT_NE(hashed_run.output.find("hash: 16 MB"), std::string::npos) << hashed_run.output;

  const auto checked = run_perftkit("perft --backend pipeline --hash 1 --seed 5 --cross-check -d 5 --fen '" +
                                    std::string(KIWIPETE) + "'");
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  EXPECT_NE(checked.output.find("Nodes searched: 193690690"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("cross-check: seeds 5 and 6 agree"), std::string::npos) << checked.output;

  // Statistics on the pipeline count through a table of theirs, with its hit rate (#62).
  const auto stats = run_perftkit("perft --backend pipeline --stats --hash 64 -d 5");
  EXPECT_EQ(stats.exit_code, 0) << stats.output;
  EXPECT_NE(stats.output.find("hash: 64 MB"), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("statistics table: "), std::string::npos) << stats.output;
  EXPECT_EQ(stats.output.find("is not used"), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("Nodes searched: 4865609"), std::string::npos) << stats.output;

  const auto json = run_perftkit("perft --backend pipeline --hash 16 -d 4 --json");
  EXPECT_NE(json.output.find("\"hash_mb\":16"), std::string::npos) << json.output;
  const auto off = run_perftkit("perft --backend pipeline --hash 0 -d 4 --json");
  EXPECT_NE(off.output.find("\"hash_mb\":0"), std::string::npos) << off.output;
  EXPECT_NE(off.output.find("\"nodes\":197281"), std::string::npos) << off.output;
}

}  // namespace
}  // namespace perftkit
