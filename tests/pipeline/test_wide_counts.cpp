// Counts of deep trees of few positions, past 64 bits per node. The pipeline keeps
// multiplicities and subtree counts in 64-bit words (the GPU's) and hands such a tree to the
// CPU core, whose frontier multiplicities are 128-bit. Found on the first GPU run: bare kings
// at depth 40 failed with "a subtree count exceeds 64 bits" where a GPU makes the pipeline
// the default backend; the CPU core's answer was wrong (1.12e29 for 1.46e32: its 64-bit
// multiplicities wrapped at ply 30), and so was its --hash 0 count from depth 32 on.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"
#include "perft/driver.hpp"
#include "support/scratch_dir.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;

bool next_to(int a, int b) {
  const int rank = a / 8 - b / 8, file = a % 8 - b % 8;
  return a != b && rank >= -1 && rank <= 1 && file >= -1 && file <= 1;
}

// Leaf count of the tree of white Ka1 against black Ka8, white to move, by walking the two
// kings over the board without the chess core: the side to move steps its king to any
// neighbouring square that is not next to the other king (nothing else can happen).
u128 bare_kings_perft(int depth) {
  // below[side][mover][other]: leaves `ply` plies below, side to move standing on `mover`.
  static u128 below[2][64][64], above[2][64][64];
  for (auto& side : below)
    for (auto& row : side)
      for (u128& count : row) count = 1;
  for (int ply = 1; ply <= depth; ++ply) {
    for (int side = 0; side < 2; ++side)
      for (int mover = 0; mover < 64; ++mover)
        for (int other = 0; other < 64; ++other) {
          u128 sum = 0;
          for (int to = 0; to < 64; ++to)
            if (next_to(mover, to) && to != other && !next_to(to, other)) sum += below[1 - side][other][to];
          above[side][mover][other] = sum;
        }
    for (int side = 0; side < 2; ++side)
      for (int mover = 0; mover < 64; ++mover)
        for (int other = 0; other < 64; ++other) below[side][mover][other] = above[side][mover][other];
  }
  constexpr int A1 = 0, A8 = 56;
  return below[0][A1][A8];
}

std::string decimal(u128 n) {
  std::string digits;
  do digits.insert(digits.begin(), char('0' + int(n % 10)));
  while ((n /= 10) != 0);
  return digits;
}

TEST(PipelineWideCounts, TheWalkOfTwoKingsMatchesCountsByHand) {
  // Ka1 v Ka8: 3 moves, then 3 x 3.
  EXPECT_EQ(decimal(bare_kings_perft(1)), "3");
  EXPECT_EQ(decimal(bare_kings_perft(2)), "9");
  EXPECT_GT(bare_kings_perft(40), u128(1) << 90);  // far past 64 bits
}

TEST(PipelineWideCounts, BareKingsAtDepth40AreCountedExactlyOnEveryBackend) {
  const std::string expected = "Nodes searched: " + decimal(bare_kings_perft(40));
  for (const char* options :
       {"--backend pipeline", "--backend pipeline --hash 0", "--backend cpu", "--backend cpu --hash 0"}) {
    const CommandResult r =
        run_perftkit(std::string("perft --depth 40 --fen 'k7/8/8/8/8/8/8/K7 w - - 0 1' ") + options);
    EXPECT_EQ(r.exit_code, 0) << options << "\n" << r.output;
    EXPECT_NE(r.output.find(expected), std::string::npos) << options << "\n" << r.output;
    if (std::string(options).find("pipeline") != std::string::npos) {
      EXPECT_NE(r.output.find("exceeds 64 bits: counted on the CPU core instead"), std::string::npos) << options << "\n"
                                                                                                      << r.output;
    }
  }
}

// Statistics too: every leaf of bare kings is a king move, none a capture, check or draw
// by the rules counted (the 50-move clock runs on: clock_100 counts the leaves past ply 99 only).
TEST(PipelineWideCounts, BareKingsStatisticsAtDepth40CountEveryLeaf) {
  const std::string expected = decimal(bare_kings_perft(40));
  for (const char* backend : {"pipeline", "cpu"}) {
    const CommandResult r = run_perftkit(
        std::string("perft --depth 40 --stats --json --fen 'k7/8/8/8/8/8/8/K7 w - - 0 1' --backend ") + backend);
    EXPECT_EQ(r.exit_code, 0) << backend << "\n" << r.output;
    EXPECT_NE(r.output.find("\"nodes\":" + expected + ","), std::string::npos) << backend << "\n" << r.output;
    EXPECT_NE(r.output.find("\"captures\":0,"), std::string::npos) << backend << "\n" << r.output;
  }
}

// A work dir splits such a tree above the ply where a position has more than 2^64 paths (its
// records keep 64 bits), and its shards count the rest exactly.
TEST(PipelineWideCounts, AWorkDirSplitsBareKingsWhereItsRecordsHoldThePaths) {
  const testing_support::ScratchDir dir("wide-counts");
  const CommandResult r =
      run_perftkit("perft --depth 40 --fen 'k7/8/8/8/8/8/8/K7 w - - 0 1' --threads 2 --work-dir '" + dir / "wd" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Nodes searched: " + decimal(bare_kings_perft(40))), std::string::npos) << r.output;
}

// One counter counts many frontiers (a work dir's shards). Once one outgrew the pipeline,
// the next as many plies deep or more go straight to the CPU core (on an H200, trying each
// of 1,024 bare-kings shards on the GPU first took minutes); shallower ones still try it.
TEST(PipelineWideCounts, ACounterSendsFrontiersAsDeepAsOneThatOutgrewThePipelineToTheCpuCore) {
  PerftRequest settings;
  settings.backend = Backend::PIPELINE;
  settings.hash_bytes = 1 << 20;
  FrontierCounter counter(settings);
  const Position bare_kings = test_positions::position_from_fen("k7/8/8/8/8/8/8/K7 w - - 0 1");
  const u128 paths = u128(1) << 64;  // one more than a 64-bit multiplicity holds
  EXPECT_EQ(decimal(counter.count({FrontierNode{bare_kings, paths, 0}}, 3, false, 1)[0]),
            decimal(paths * bare_kings_perft(3)));
  EXPECT_STREQ(counter.backend_name(), "cpu");
  const std::string reason = counter.cpu_fallback();
  EXPECT_NE(reason.find("exceeds 64 bits"), std::string::npos) << reason;

  const Position position3 = test_positions::position_from_fen(test_positions::POSITION3);
  EXPECT_EQ(decimal(counter.count({FrontierNode{position3, 1, 0}}, 3, false, 1)[0]), "2812");
  EXPECT_STREQ(counter.backend_name(), "cpu");
  EXPECT_EQ(counter.cpu_fallback(), reason);

  EXPECT_EQ(decimal(counter.count({FrontierNode{position3, 1, 0}}, 2, false, 1)[0]), "191");
  EXPECT_STREQ(counter.backend_name(), "pipeline");
  EXPECT_EQ(counter.cpu_fallback(), "");
}

}  // namespace
}  // namespace perftkit
