// The frontier pipeline on Thrust's OpenMP system (the code path the GPU runs, with the
// CUDA policy) against the plain CPU backend and published counts: every shared suite at CI
// depths, tiny batches and chunks, memory exhaustion, exact merging, 128-bit totals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "support/standard_positions.hpp"
#include "pipeline/frontier.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/subtree_table.hpp"
#include "common/cancellation.hpp"
#include "support/pipeline_root_runs.hpp"
#include "pipeline/functors.hpp"
#include "notation/suite.hpp"
#include "support/suite_ci_depth.hpp"
#include "support/test_paths.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

u128 cpu_perft(const Position& root, int depth) {
  PerftRequest req;
  req.root = root;
  req.depth = depth;
  req.backend = Backend::CPU;
  return run_perft(req).nodes;
}

std::string str(u128 v) { return to_string_u128(v); }

// ---- the shared suites --------------------------------------------------------------------

class PipelineSharedSuite : public ::testing::TestWithParam<const char*> {};

// Every case of the suite at its CI depth: the pipeline (one host ply, so the levels below
// do the work) must give the published count, and so must the CPU backend.
TEST_P(PipelineSharedSuite, MatchesCpuBackendAndPublishedCounts) {
  const std::filesystem::path path = shared_suite_path(GetParam());
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared perft data at " << path;
  PipelineOptions options;
  options.host_plies = 1;
  options.key_seed = std::hash<std::string>{}(GetParam());
  expect_suite_at_ci_depths(path, [&](const Position& position, int depth) {
    const u128 nodes = pipeline_perft(position, depth, false, options).nodes;
    EXPECT_EQ(str(cpu_perft(position, depth)), str(nodes)) << "the CPU backend";
    return nodes;
  });
}

INSTANTIATE_TEST_SUITE_P(Omp, PipelineSharedSuite,
                         ::testing::Values("standard.epd", "perft.epd", "perft-ferdy-double-checks.epd", "tricky.perft",
                                           "random.perft", "fischer.epd"),
                         [](const auto& param_info) { return suite_test_name(param_info.param) + "_omp"; });

// Every listed depth of the smaller suites (hours on two cores): `ctest -L slow`.
TEST(PipelineSuites, FullDepth) {
  if (!std::getenv("PERFTKIT_FULL_DEPTH")) GTEST_SKIP() << "set PERFTKIT_FULL_DEPTH=1 to run every depth";
  const std::filesystem::path dir = std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no shared perft data at " << dir;
  for (const char* name : {"standard.epd", "tricky.perft", "perft-ferdy-double-checks.epd", "perft.epd"}) {
    const SuiteFileResult suite = read_suite(dir / name, name);
    ASSERT_TRUE(suite) << suite.error;
    for (const SuiteCase& c : suite->cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
      for (const ExpectedCount& e : c.expected)
        EXPECT_EQ(str(pipeline_perft(parsed->position, e.depth, false, PipelineOptions{}).nodes), str(e.nodes))
            << c.source << " depth " << e.depth;
    }
  }
}

// ---- standard positions, depth by depth ---------------------------------------------------

class PipelineKnown : public ::testing::TestWithParam<PublishedCount> {};

// Merging on and off, automatic host plies: the same published count.
TEST_P(PipelineKnown, MergedAndUnmergedMatchPublishedCount) {
  const PublishedCount& k = GetParam();
  const Position root = position_from_fen(k.fen);
  for (bool merge : {true, false}) {
    PipelineOptions options;
    options.merge = merge;
    const PipelineReport report = pipeline_perft(root, k.depth, false, options);
    EXPECT_EQ(str(report.nodes), str(k.nodes)) << (merge ? "merged" : "unmerged");
    EXPECT_EQ(report.system, "omp");
    if (!merge) {
      EXPECT_EQ(report.counters.merged_away, 0u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Omp, PipelineKnown, ::testing::ValuesIn(CI_DEPTH_COUNTS),
                         [](const auto& param_info) { return std::string(param_info.param.name) + "_omp"; });

// ---- batching, chunking, memory ----------------------------------------------------------

// A frontier of 400 nodes in batches of 7, children expanded at most 500 at a time, in 4 MiB
// of level buffers: many batches and chunks, the same count.
TEST(Pipeline, TinyBatchesAndChunksGiveTheSameCount) {
  const Position root = position_from_fen(KIWIPETE);
  PipelineOptions options;
  options.host_plies = 1;
  options.batch_nodes = 7;
  options.max_chunk_nodes = 500;
  options.memory_budget = 4 << 20;
  const PipelineReport report = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(report.nodes), "193690690");
  EXPECT_EQ(report.counters.batches, 7u);  // 48 root moves in batches of 7
  EXPECT_GT(report.counters.chunks, 100u);
  EXPECT_GT(report.counters.merged_away, 0u);
  EXPECT_EQ(report.counters.fallback_batches, 0u);

  options.host_plies = 2;
  options.batch_nodes = 3;
  const PipelineReport finer = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(finer.nodes), "193690690");
  EXPECT_EQ(finer.counters.batches, (finer.counters.host_frontier + 2) / 3);
}

// Level buffers that hold the frontier but not its levels: the batch is split until the
// halves fit, and the count is exact.
TEST(Pipeline, OversizedBatchesAreSplit) {
  const Position root = position_from_fen("startpos");
  PipelineOptions options;
  options.host_plies = 2;
  options.memory_budget = 40 << 10;  // the 400 nodes fit, with no room for their children
  const PipelineReport report = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(report.nodes), "4865609");
  EXPECT_GT(report.counters.batches, 1u);
}

// Level buffers too small for one position's children: every node goes to the CPU core,
// and the count is still exact.
TEST(Pipeline, ExhaustedMemoryFallsBackToTheCpuCore) {
  const Position root = position_from_fen("startpos");
  PipelineOptions options;
  options.host_plies = 2;
  options.memory_budget = 6 << 10;
  const PipelineReport report = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(report.nodes), "4865609");
  EXPECT_EQ(report.counters.fallback_batches, report.counters.host_frontier);
  EXPECT_EQ(report.counters.batches, 0u);
}

// A budget that holds some chunks but not all: the pipeline counts what fits in small
// chunks rather than giving up.
TEST(Pipeline, SmallBudgetUsesSmallChunks) {
  const Position root = position_from_fen(POSITION4);
  PipelineOptions options;
  options.host_plies = 1;
  options.memory_budget = 128 << 10;
  const PipelineReport report = pipeline_perft(root, 5, false, options);
  EXPECT_EQ(str(report.nodes), "15833292");
  EXPECT_GT(report.counters.chunks, 10u);
  EXPECT_EQ(report.counters.fallback_batches, 0u);
}

// ---- exact merging -----------------------------------------------------------------------

// Keys that all collide (mask 0) or mostly collide (4 bits): merging then rests on the full
// position compare alone and must never merge two different positions.
TEST(Pipeline, CollidingKeysNeverChangeTheCount) {
  const Position root = position_from_fen("startpos");
  for (std::uint64_t mask : {std::uint64_t(0), std::uint64_t(0xF)}) {
    PipelineOptions options;
    options.host_plies = 1;
    options.key_mask = mask;
    const PipelineReport report = pipeline_perft(root, 5, false, options);
    EXPECT_EQ(str(report.nodes), "4865609") << "mask " << mask;
  }
}

// The seed only orders the merge; a second seed is a re-run check with the same answer.
TEST(Pipeline, AnySeedGivesTheSameCount) {
  const Position root = position_from_fen(KIWIPETE);
  PipelineCounters first{};
  for (std::uint64_t seed : {PIPELINE_DEFAULT_SEED, std::uint64_t(1), std::uint64_t(0xDEADBEEF)}) {
    PipelineOptions options;
    options.host_plies = 1;
    options.key_seed = seed;
    const PipelineReport report = pipeline_perft(root, 4, false, options);
    EXPECT_EQ(str(report.nodes), "4085603") << "seed " << seed;
    if (seed == PIPELINE_DEFAULT_SEED) first = report.counters;
    EXPECT_EQ(report.counters.merged_away, first.merged_away) << "the same positions merge whatever the seed";
  }
}

// Identical positions reached by different paths are counted once, times their multiplicity:
// the unique positions below the start position (72078 at ply 4).
TEST(Pipeline, MergingLeavesOneNodePerPosition) {
  const Position root = position_from_fen("startpos");
  PipelineOptions options;
  options.host_plies = 1;
  const PipelineReport report = pipeline_perft(root, 6, false, options);
  EXPECT_EQ(str(report.nodes), "119060324");
  EXPECT_EQ(report.counters.leaf_nodes, 72078u);  // ply 4: 197281 paths, 72078 positions
}

// ---- divide and frontiers ----------------------------------------------------------------

TEST(Pipeline, DivideMatchesTheCpuBackend) {
  const Position root = position_from_fen(POSITION5);
  PipelineOptions options;
  options.batch_nodes = 50;
  const PipelineReport report = pipeline_perft(root, 4, true, options);
  EXPECT_EQ(str(report.nodes), "2103487");
  PerftRequest req;
  req.root = root;
  req.depth = 4;
  req.divide = true;
  req.backend = Backend::CPU;
  const PerftReport cpu = run_perft(req);
  const std::vector<Move> moves = root_moves(root);
  ASSERT_EQ(report.divide.size(), moves.size());
  std::map<std::uint16_t, u128> by_move;
  for (const DivideEntry& e : cpu.divide) by_move[e.move.raw()] = e.nodes;
  for (std::size_t m = 0; m < moves.size(); ++m)
    EXPECT_EQ(str(report.divide[m]), str(by_move[moves[m].raw()])) << "root move " << m;
}

// Multiplicities near 2^64 times subtree counts: totals are exact in 128 bits.
TEST(Pipeline, TotalsAreExactBeyondSixtyFourBits) {
  const Position start = position_from_fen("startpos");
  const std::uint64_t big = ~std::uint64_t(0) - 1;
  const std::vector<FrontierNode> frontier = {{start, big, 0}, {position_from_fen(KIWIPETE), 3, 0}};
  const std::vector<u128> totals =
      pipeline_count_frontier<pipeline::CountNodes>(frontier, 3, false, 1, PipelineOptions{});
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(str(totals[0]), str(u128(big) * 8902 + 3 * 97862));
}

// A computation stopped from outside (common/cancellation.hpp) ends between the chunks of a
// level, node counts and subtree mode alike; without a stop the same call counts.
TEST(Pipeline, AStopFlagEndsTheCountBetweenChunks) {
  const std::vector<FrontierNode> frontier = {{position_from_fen(KIWIPETE), 1, 0}};
  StopFlag stop{true};
  {
    const StopScope scope(&stop);
    EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(frontier, 4, false, 1, PipelineOptions{}), Cancelled);
    SubtreeTable table(std::size_t(16) << 20);
    PipelineOptions hashed;
    hashed.hash_bytes = table.bytes();
    hashed.omp_table = &table;
    EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(frontier, 4, false, 1, hashed), Cancelled);
  }
  EXPECT_EQ(str(pipeline_count_frontier<pipeline::CountNodes>(frontier, 4, false, 1, PipelineOptions{})[0]), "4085603");
}

// Two copies of a node with multiplicity 2^63: their children merge to 2^64, which does
// not fit; the run fails rather than wrap. Without merging it is exact.
TEST(Pipeline, MultiplicityOverflowFailsInsteadOfWrapping) {
  const Position start = position_from_fen("startpos");
  const std::uint64_t half = std::uint64_t(1) << 63;
  const std::vector<FrontierNode> frontier = {{start, half, 0}, {start, half, 0}};
  EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(frontier, 3, false, 1, PipelineOptions{}),
               std::overflow_error);
  PipelineOptions unmerged;
  unmerged.merge = false;
  EXPECT_EQ(str(pipeline_count_frontier<pipeline::CountNodes>(frontier, 3, false, 1, unmerged)[0]),
            str(u128(2) * half * 8902));
  const std::vector<FrontierNode> saturated = {{start, pipeline::SATURATED, 0}};
  EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(saturated, 2, false, 1, unmerged), std::overflow_error);
}

TEST(Pipeline, PerRootMoveTotalsNeedSortedRootMoves) {
  const Position start = position_from_fen("startpos");
  const std::vector<FrontierNode> unsorted = {{start, 1, 1}, {start, 1, 0}};
  EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(unsorted, 1, true, 2, PipelineOptions{}),
               std::invalid_argument);
  const std::vector<FrontierNode> out_of_range = {{start, 1, 2}};
  EXPECT_THROW(pipeline_count_frontier<pipeline::CountNodes>(out_of_range, 1, true, 2, PipelineOptions{}),
               std::invalid_argument);
  EXPECT_THROW(pipeline_perft(start, -1, false, PipelineOptions{}), std::invalid_argument);
}

// ---- kernel bodies -----------------------------------------------------------------------

TEST(PipelineFunctors, WideArithmetic) {
  const Sum128 p = wide_product(~std::uint64_t(0), ~std::uint64_t(0));
  EXPECT_EQ(str(p.value()), str(u128(~std::uint64_t(0)) * ~std::uint64_t(0)));
  const Sum128 s = Sum128Plus{}(Sum128{~std::uint64_t(0), 1}, Sum128{1, 2});
  EXPECT_EQ(s.lo, 0u);
  EXPECT_EQ(s.hi, 4u);
  const pipeline::SaturatingAdd add;
  EXPECT_EQ(add(1, 2), 3u);
  EXPECT_EQ(add(std::uint64_t(1) << 63, std::uint64_t(1) << 63), pipeline::SATURATED);
  EXPECT_EQ(add(pipeline::SATURATED, 5), pipeline::SATURATED);
}

TEST(PipelineFunctors, LeafPerftMatchesTheCore) {
  for (const char* fen : {"startpos", KIWIPETE, POSITION3, POSITION4, POSITION5, MANY_MOVES}) {
    const Position pos = position_from_fen(fen);
    for (int depth = 0; depth <= 2; ++depth) {
      EXPECT_EQ(pipeline::leaf_perft(pos, depth), perft(pos, depth)) << fen;
      EXPECT_EQ(pipeline::listed_leaf_perft(pos, depth), perft(pos, depth)) << fen << " (the GPU's loop)";
    }
  }
}

// 263 moves: the leaf kernels' move list is filled twice, and so is a parent's child slots.
TEST(PipelineFunctors, MoreMovesThanOneMoveListHolds) {
  const Position pos = position_from_fen(MANY_MOVES);
  EXPECT_EQ(pipeline::leaf_perft(pos, 1), 263u);
  EXPECT_EQ(pipeline::leaf_perft(pos, 2), 1419u);
  EXPECT_EQ(pipeline::listed_leaf_perft(pos, 2), 1419u);
  PipelineOptions options;
  options.host_frontier = 1;  // the root goes to the levels, which write its 263 children
  EXPECT_EQ(str(pipeline_perft(pos, 3, false, options).nodes), "345103");
  options.hash_bytes = 1 << 20;  // ...or, with a table, list its 263 moves into child slots
  EXPECT_EQ(str(pipeline_perft(pos, 3, false, options).nodes), "345103");
}

// Positions that differ only in their clocks have the same tree and merge; anything else
// keeps them apart.
TEST(PipelineFunctors, SameTreeIgnoresOnlyTheClocks) {
  const Position a = position_from_fen("startpos");
  Position b = a;
  b.halfmove_clock = 7;
  b.fullmove_number = 30;
  EXPECT_TRUE(pipeline::same_tree(a, b));
  b.side_to_move = BLACK;
  EXPECT_FALSE(pipeline::same_tree(a, b));
  Position c = a;
  c.castling_rooks &= ~square_bb(SQ_H1);
  EXPECT_FALSE(pipeline::same_tree(a, c));
}

}  // namespace
}  // namespace perftkit
