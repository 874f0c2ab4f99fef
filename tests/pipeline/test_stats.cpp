// The pipeline's statistics mode on Thrust's OpenMP system (the code path the GPU runs with
// the CUDA policy): every counter against published figures and against the CPU core run
// without merging, the half-move clock where merging meets it, collisions, divide, small
// memory and the CPU fallback, the driver and the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/stats_reference.hpp"
#include "notation/fen.hpp"
#include "support/standard_positions.hpp"
#include "pipeline/frontier.hpp"
#include "perft/driver.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/pipeline.hpp"
#include "support/pipeline_root_runs.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/stats_totals.hpp"
#include "notation/suite.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

// The start position with its clock near 100: transpositions of a pawn move and a piece
// move reach one position with two clocks, and the 50-move counter tells them apart.
constexpr const char* START_CLOCK_95 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 95 40";
// A rook ending at clock 145: the 75-move counter, captures, mates.
constexpr const char* ROOKS_CLOCK_145 = "8/8/3k4/8/1r6/8/4K3/R7 w - - 145 120";

using testing_support::cpu_stats;
using testing_support::describe;

// The output without what differs from backend to backend: timing, the backend's name and
// the table's size.
std::string without_timing(const std::string& json) {
  static const std::regex varying("\"(seconds|nps|backend|hash_mb)\":[^,]*,|time [0-9.]+ s, [^\n]*\n");
  return std::regex_replace(json, varying, "");
}

// ---- published figures --------------------------------------------------------------------

TEST(PipelineStats, KiwipeteDepth4MatchesThePublishedTable) {
  const StatsTotals t = pipeline_perft_stats(position_from_fen(KIWIPETE), 4, false, PipelineOptions{}).stats;
  EXPECT_EQ(to_string_u128(t[NODES]), "4085603");
  EXPECT_EQ(to_string_u128(t[CAPTURES]), "757163");
  EXPECT_EQ(to_string_u128(t[EN_PASSANT_CAPTURES]), "1929");
  EXPECT_EQ(to_string_u128(t[CASTLES]), "128013");
  EXPECT_EQ(to_string_u128(t[PROMOTIONS]), "15172");
  EXPECT_EQ(to_string_u128(t[CHECKS]), "25523");
  EXPECT_EQ(to_string_u128(t[DISCOVERED_CHECKS] - t[DISCOVERED_CHECKMATES]), "42");
  EXPECT_EQ(to_string_u128(t[DOUBLE_CHECKS] - t[DOUBLE_CHECKMATES]), "6");
  EXPECT_EQ(to_string_u128(t[CHECKMATES]), "43");
}

TEST(PipelineStats, StartDepth5MatchesThePublishedTable) {
  const StatsTotals t = pipeline_perft_stats(position_from_fen("startpos"), 5, false, PipelineOptions{}).stats;
  EXPECT_EQ(to_string_u128(t[NODES]), "4865609");
  EXPECT_EQ(to_string_u128(t[CAPTURES]), "82719");
  EXPECT_EQ(to_string_u128(t[EN_PASSANT_CAPTURES]), "258");
  EXPECT_EQ(to_string_u128(t[CHECKS]), "27351");
  EXPECT_EQ(to_string_u128(t[DISCOVERED_CHECKS]), "6");
  EXPECT_EQ(to_string_u128(t[CHECKMATES]), "347");
}

TEST(PipelineStats, Position3Depth5MatchesThePublishedTable) {
  const StatsTotals t = pipeline_perft_stats(position_from_fen(POSITION3), 5, false, PipelineOptions{}).stats;
  EXPECT_EQ(to_string_u128(t[NODES]), "674624");
  EXPECT_EQ(to_string_u128(t[CAPTURES]), "52051");
  EXPECT_EQ(to_string_u128(t[EN_PASSANT_CAPTURES]), "1165");
  EXPECT_EQ(to_string_u128(t[CHECKS]), "52950");
  EXPECT_EQ(to_string_u128(t[DISCOVERED_CHECKS] - t[DISCOVERED_CHECKMATES]), "1292");
  EXPECT_EQ(to_string_u128(t[DOUBLE_CHECKS] - t[DOUBLE_CHECKMATES]), "3");
  EXPECT_EQ(to_string_u128(t[CHECKMATES]), "0");
}

// ---- every counter against the CPU core -----------------------------------------------------

struct Case {
  const char* name;
  const char* fen;
  int depth;
};

const Case CASES[] = {
    {"Start_D4", "startpos", 4},
    {"Kiwipete_D3", KIWIPETE, 3},
    {"Position3_D5", POSITION3, 5},
    {"Position4_D4", POSITION4, 4},
    {"Position5_D3", POSITION5, 3},
    {"Position6_D3", POSITION6, 3},
    {"StartClock95_D5", START_CLOCK_95, 5},
    {"RooksClock145_D5", ROOKS_CLOCK_145, 5},
    {"Depth2", KIWIPETE, 2},
    {"Depth1", POSITION4, 1},
    {"Depth0", POSITION6, 0},
};

class PipelineStatsCases : public ::testing::TestWithParam<Case> {};

// Merged and unmerged, with the host frontier one ply deep so that the system merges the
// levels below it: every counter equals the CPU core's.
TEST_P(PipelineStatsCases, EveryCounterMatchesTheCpuCore) {
  const Case& c = GetParam();
  const Position root = position_from_fen(c.fen);
  const StatsTotals reference = cpu_stats(root, c.depth);
  for (bool merge : {true, false}) {
    PipelineOptions options;
    options.host_plies = 1;
    options.merge = merge;
    const PipelineStatsReport report = pipeline_perft_stats(root, c.depth, false, options);
    EXPECT_EQ(describe(report.stats), describe(reference)) << "merge " << merge;
  }
}

INSTANTIATE_TEST_SUITE_P(Pipeline, PipelineStatsCases, ::testing::ValuesIn(CASES),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// ---- the clock where positions merge -----------------------------------------------------------

// Near clock 100 a position reached with two clocks is two nodes for the 50-move counter:
// the figures match the unmerged core, and there are leaves on both sides of the line.
TEST(PipelineStats, ClocksKeepApartWhatTheFiftyMoveCounterSeesApart) {
  const Position root = position_from_fen(START_CLOCK_95);
  PipelineOptions options;
  options.host_plies = 1;
  const PipelineStatsReport report = pipeline_perft_stats(root, 5, false, options);
  const StatsTotals reference = cpu_stats(root, 5);
  EXPECT_EQ(describe(report.stats), describe(reference));
  EXPECT_GT(report.stats[CLOCK_100], 0u);
  EXPECT_LT(report.stats[CLOCK_100], report.stats[NODES]);
  EXPECT_GT(report.counters.merged_away, 0u);  // far from the clock, transpositions still merge
}

// With every sort key equal, merging rests on the position and clock compare alone.
TEST(PipelineStats, CollidingKeysNeverChangeACounter) {
  const Position root = position_from_fen(START_CLOCK_95);
  const StatsTotals reference = cpu_stats(root, 4);
  for (std::uint64_t mask : {std::uint64_t(0), std::uint64_t(0x7)}) {
    PipelineOptions options;
    options.host_plies = 1;
    options.key_mask = mask;
    EXPECT_EQ(describe(pipeline_perft_stats(root, 4, false, options).stats), describe(reference)) << mask;
  }
}

TEST(PipelineStats, ClockHorizonSeesOnlyClocksALeafCouldReach) {
  const pipeline::ClockHorizon two_plies = pipeline::stats_clock_horizon(2);
  Position p = position_from_fen("startpos");
  p.halfmove_clock = 97;
  EXPECT_EQ(two_plies(p), 0u);  // 97 + 2 < 100: no leaf below reaches 100
  p.halfmove_clock = 98;
  EXPECT_EQ(two_plies(p), 99u);
  p.halfmove_clock = 300;
  EXPECT_EQ(pipeline::CLOCK_NEVER_COUNTS(p), 0u);
}

// ---- divide, memory, fallback -------------------------------------------------------------

TEST(PipelineStats, DivideMatchesTheCpuCorePerRootMove) {
  const Position root = position_from_fen(POSITION5);
  PipelineOptions options;
  options.batch_nodes = 50;
  const PipelineStatsReport report = pipeline_perft_stats(root, 3, true, options);
  PerftRequest req;
  req.root = root;
  req.depth = 3;
  req.divide = true;
  req.stats = true;
  req.backend = Backend::CPU;
  const PerftReport cpu = run_perft(req);
  const std::vector<Move> moves = root_moves(root);
  ASSERT_EQ(report.divide.size(), moves.size());
  std::map<std::uint16_t, StatsTotals> by_move;
  for (const DivideEntry& e : cpu.divide) by_move[e.move.raw()] = e.stats;
  StatsTotals sum;
  for (std::size_t m = 0; m < moves.size(); ++m) {
    EXPECT_EQ(describe(report.divide[m]), describe(by_move[moves[m].raw()])) << "root move " << m;
    sum += report.divide[m];
  }
  EXPECT_EQ(describe(sum), describe(report.stats));
  EXPECT_EQ(describe(report.stats), describe(cpu.stats));
}

// Small level buffers: many chunks, batches split, and what does not fit at all is counted by
// the CPU core's statistics; every counter stays exact.
TEST(PipelineStats, SmallMemoryAndTheCpuFallbackStayExact) {
  const Position kiwipete = position_from_fen(KIWIPETE);
  PipelineOptions chunked;
  chunked.host_plies = 1;
  chunked.batch_nodes = 7;
  chunked.max_chunk_nodes = 50;
  chunked.memory_budget = 2 << 20;
  const PipelineStatsReport small = pipeline_perft_stats(kiwipete, 4, false, chunked);
  EXPECT_EQ(describe(small.stats), describe(cpu_stats(kiwipete, 4)));
  EXPECT_GT(small.counters.chunks, 20u);

  // Too small for one position's children: every frontier node goes to the CPU core.
  const Position start = position_from_fen(START_CLOCK_95);
  PipelineOptions starved;
  starved.host_plies = 2;
  starved.memory_budget = 6 << 10;
  const PipelineStatsReport fallback = pipeline_perft_stats(start, 5, false, starved);
  EXPECT_EQ(describe(fallback.stats), describe(cpu_stats(start, 5)));
  EXPECT_EQ(fallback.counters.fallback_batches, fallback.counters.host_frontier);
}

TEST(PipelineStats, FrontierCountsNeedALeafPly) {
  const std::vector<FrontierNode> frontier = {{position_from_fen("startpos"), 1, 0}};
  EXPECT_THROW(pipeline_count_frontier<pipeline::CountStats>(frontier, 0, false, 1, PipelineOptions{}),
               std::invalid_argument);
  const std::vector<StatsTotals> totals =
      pipeline_count_frontier<pipeline::CountStats>(frontier, 2, false, 1, PipelineOptions{});
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(to_string_u128(totals[0][NODES]), "400");
}

// Multiplicities near 2^64 times leaf counters: exact in 128 bits.
TEST(PipelineStats, TotalsAreExactBeyondSixtyFourBits) {
  const std::uint64_t big = ~std::uint64_t(0) - 1;
  const std::vector<FrontierNode> frontier = {{position_from_fen("startpos"), big, 0}};
  PipelineOptions unmerged;
  unmerged.merge = false;
  const std::vector<StatsTotals> totals =
      pipeline_count_frontier<pipeline::CountStats>(frontier, 3, false, 1, unmerged);
  EXPECT_EQ(to_string_u128(totals[0][NODES]), to_string_u128(u128(big) * 8902));
  EXPECT_EQ(to_string_u128(totals[0][CHECKS]), to_string_u128(u128(big) * 12));
}

// ---- the shared suites --------------------------------------------------------------------

// Every case of the standard suite at its first listed depth (2 or more) of at most 20000 nodes.
TEST(PipelineStats, StandardSuiteMatchesTheCpuCore) {
  const std::filesystem::path path =
      std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft" / "standard.epd";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared perft data at " << path;
  const SuiteFileResult suite = read_suite(path, "standard.epd");
  ASSERT_TRUE(suite) << suite.error;
  int checked = 0;
  for (const SuiteCase& c : suite->cases) {
    const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
    ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
    for (const ExpectedCount& e : c.expected) {
      if (e.depth < 2 || e.nodes > 20000) continue;
      PipelineOptions options;
      options.host_plies = 1;
      const StatsTotals t = pipeline_perft_stats(parsed->position, e.depth, false, options).stats;
      EXPECT_EQ(to_string_u128(t[NODES]), to_string_u128(e.nodes)) << c.source;
      EXPECT_EQ(describe(t), describe(cpu_stats(parsed->position, e.depth))) << c.source;
      ++checked;
      break;
    }
  }
  EXPECT_GT(checked, 50);
}

// ---- driver and CLI ---------------------------------------------------------------------------

TEST(PipelineStats, CliGivesTheCpuBackendsFigures) {
  using testing_support::run_perftkit;
  const std::string args =
      std::string("perft --fen \"") + KIWIPETE + "\" --depth 3 --stats --divide --threads 2 --json";
  const testing_support::CommandResult cpu = run_perftkit(args + " --backend cpu");
  const testing_support::CommandResult pipeline = run_perftkit(args + " --backend pipeline");
  ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
  ASSERT_EQ(pipeline.exit_code, 0) << pipeline.output;
  EXPECT_EQ(without_timing(pipeline.output), without_timing(cpu.output));
  EXPECT_NE(pipeline.output.find("97862"), std::string::npos);
  EXPECT_NE(pipeline.output.find("\"backend\":\"pipeline\""), std::string::npos);
}

}  // namespace
}  // namespace perftkit
