// `perftkit suite`: the user's positions (FEN/EPD lines or PGN games) written as a suite in
// the `FEN ;D1 n ;D2 n ...` form, which `verify` and `diff --suite` read back. The expected
// counts are published ones (start position, Kiwipete) or counted by hand in the comments.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"
#include "support/standard_positions.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;
using testing_support::ScratchDir;

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SuiteCommand, WritesPublishedCountsForFenLinesAndNamesRejectedLines) {
  ScratchDir dir("suite-fen");
  write_file(dir / "mine.txt", std::string("startpos\n# a comment\n\n") + test_positions::KIWIPETE + "\nnot a fen\n");
  const CommandResult result =
      run_perftkit("suite '" + (dir / "mine.txt") + "' --depth 3 -o '" + (dir / "mine.epd") + "'");
  EXPECT_EQ(result.exit_code, 1) << result.output;  // one line rejected, the rest written
  EXPECT_NE(result.output.find("mine.txt:5: "), std::string::npos) << result.output;
  EXPECT_EQ(read_file(dir / "mine.epd"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n"
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862\n");
  const CommandResult verify = run_perftkit("verify '" + (dir / "mine.epd") + "'");
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  EXPECT_NE(verify.output.find("6 passed, 0 failed"), std::string::npos) << verify.output;
}

TEST(SuiteCommand, TakesEveryPositionOfPgnGamesOnceWithinMaxNodes) {
  ScratchDir dir("suite-pgn");
  // The start position repeats in the second game and is written once. After 1.e4 e5 White has
  // 14 pawn moves, 5 knight moves, 5 bishop moves, 4 queen moves and Ke2: 29.
  write_file(dir / "games.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 *\n");
  const CommandResult result =
      run_perftkit("suite '" + (dir / "games.pgn") + "' --depth 2 --max-nodes 450 -o '" + (dir / "games.epd") + "'");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read_file(dir / "games.epd"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n"
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ;D1 20\n"
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 ;D1 29\n");
  EXPECT_NE(result.output.find("suite: 3 positions, 2 repeats left out"), std::string::npos) << result.output;
  const CommandResult finals = run_perftkit("suite '" + (dir / "games.pgn") + "' --depth 1 --positions final");
  EXPECT_EQ(finals.exit_code, 0) << finals.output;
  EXPECT_NE(finals.output.find("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 ;D1 29"),
            std::string::npos);
  EXPECT_NE(finals.output.find("suite: 2 positions"), std::string::npos) << finals.output;
}

TEST(SuiteCommand, DiffReadsTheSuiteBack) {
  ScratchDir dir("suite-diff");
  write_file(dir / "mine.txt", std::string(test_positions::POSITION3) + "\n");
  ASSERT_EQ(run_perftkit("suite '" + (dir / "mine.txt") + "' --depth 3 -o '" + (dir / "mine.epd") + "'").exit_code, 0);
  const CommandResult diff = run_perftkit("diff --engine '" + std::string(test_paths::bug_engine_binary()) +
                                          " --bug ep-exposes-king uci' --suite '" + (dir / "mine.epd") + "' --depth 3");
  EXPECT_EQ(diff.exit_code, 1) << diff.output;
  EXPECT_NE(diff.output.find("1 position: 0 agree, 1 differ"), std::string::npos) << diff.output;
}

}  // namespace
}  // namespace perftkit
