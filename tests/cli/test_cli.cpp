// The perftkit binary end to end: help, a known count, bad input, verify exit codes.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"
#include "support/test_paths.hpp"

namespace {

using perftkit::testing_support::CommandResult;

CommandResult run(const std::string& args) { return perftkit::testing_support::run_perftkit(args); }

std::string data_file(const char* name) { return std::string(perftkit::test_paths::test_data_dir()) + "/" + name; }

TEST(Cli, HelpExitsZeroAndListsSubcommands) {
  const CommandResult r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("perft"), std::string::npos);
  EXPECT_NE(r.output.find("verify"), std::string::npos);
  EXPECT_EQ(run("perft --help").exit_code, 0);
}

TEST(Cli, VersionExitsZero) {
  const CommandResult r = run("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find('.'), std::string::npos);
}

TEST(Cli, StartPositionPerft4) {
  const CommandResult r = run("perft --depth 4 --backend cpu");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("Nodes searched: 197281\n"), std::string::npos) << r.output;
}

TEST(Cli, DivideLinesAreStockfishStyle) {
  const CommandResult r = run("perft --depth 2 --divide --backend cpu");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("e2e4: 20\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Nodes searched: 400\n"), std::string::npos) << r.output;
}

TEST(Cli, MovesAreAppliedFirst) {
  // After 1.e4 the position has 20 replies and 600 nodes at depth 2.
  const CommandResult r = run("perft --depth 2 --moves e2e4 --backend cpu");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("Nodes searched: 600\n"), std::string::npos) << r.output;
}

TEST(Cli, JsonOutputCarriesTheCount) {
  const CommandResult r = run("perft --depth 3 --json --divide --backend cpu");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("\"nodes\":8902"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"divide\":{"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"backend\":\"cpu\""), std::string::npos) << r.output;
}

TEST(Cli, BadFenExitsTwoWithTheReason) {
  const CommandResult r = run("perft --depth 1 --fen '8/8/8/8/8/8/8/8 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("king"), std::string::npos) << r.output;
}

TEST(Cli, IllegalMoveExitsTwo) {
  const CommandResult r = run("perft --depth 1 --moves e2e5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("e2e5"), std::string::npos) << r.output;
}

TEST(Cli, BadUsageExitsTwo) {
  EXPECT_EQ(run("perft").exit_code, 2);  // --depth is required
  EXPECT_EQ(run("perft --depth x").exit_code, 2);
  EXPECT_EQ(run("perft --depth 2 --backend gpu").exit_code, 2);
  EXPECT_EQ(run("no-such-command").exit_code, 2);
}

TEST(Cli, VerifyPassingSuiteExitsZero) {
  const CommandResult r = run("verify " + data_file("small.epd"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(" passed, 0 failed\n"), std::string::npos) << r.output;
}

TEST(Cli, VerifyMismatchExitsOne) {
  const CommandResult r = run("verify " + data_file("wrong.epd"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("MISMATCH"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("expected 8903 got 8902"), std::string::npos) << r.output;
}

TEST(Cli, VerifyMissingFileExitsTwo) { EXPECT_EQ(run("verify /nonexistent/suite.epd").exit_code, 2); }

}  // namespace

namespace {

TEST(Cli, CrossCheckWithTwoKeySetsPasses) {
  const CommandResult r = run("perft --depth 5 --hash 16 --cross-check --backend cpu");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Nodes searched: 4865609\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cross-check: seeds 1 and 2 agree"), std::string::npos) << r.output;
}

TEST(Cli, HashSizeIsPrintedAndZeroTurnsItOff) {
  const CommandResult on = run("perft --depth 5 --hash 8 --backend cpu");
  EXPECT_NE(on.output.find("hash: 8 MB"), std::string::npos) << on.output;
  const CommandResult off = run("perft --depth 5 --hash 0 --backend cpu --json");
  EXPECT_EQ(off.exit_code, 0);
  EXPECT_EQ(off.output.find("hash: "), std::string::npos) << off.output;
  EXPECT_NE(off.output.find("\"hash_mb\":0"), std::string::npos) << off.output;
}

// The CPU core's table holds one entry per distinct subtree: more than the depth can fill only
// costs page faults, so a larger --hash is cut to what the depth needs (16 MB at perft 5).
TEST(Cli, ATableLargerThanTheDepthCanFillIsCut) {
  const CommandResult cut = run("perft --depth 5 --hash 4096 --backend cpu --json");
  EXPECT_EQ(cut.exit_code, 0) << cut.output;
  EXPECT_NE(cut.output.find("hash: 16 MB (less than asked: all that this depth can fill)"), std::string::npos)
      << cut.output;
  EXPECT_NE(cut.output.find("\"hash_mb\":16"), std::string::npos) << cut.output;
  EXPECT_NE(cut.output.find("\"nodes\":4865609"), std::string::npos) << cut.output;
  // The pipeline's table gets what is asked.
  const CommandResult pipeline = run("perft --depth 5 --hash 64 --backend pipeline --json");
  EXPECT_NE(pipeline.output.find("\"hash_mb\":64"), std::string::npos) << pipeline.output;
}

}  // namespace
