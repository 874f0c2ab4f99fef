// `perftkit uci` and `perftkit perftree`: perftkit as the reference engine of perftree and of
// test harnesses. The UCI loop is driven with the lines perftree sends and parsed as perftree
// parses it; garbage and illegal moves get error lines and the loop stays up.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/uci_session.hpp"
#include "support/cli_runner.hpp"
#include "support/test_paths.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

using testing_support::run_perftkit;
using testing_support::run_shell;

using testing_support::lines_of;

// What perftree takes from the engine: the first line discarded (the banner), then
// `move: count` lines up to `Nodes searched: N`.
struct PerftreeReading {
  std::map<std::string, long long> divide;
  long long total = -1;
};

PerftreeReading read_as_perftree(const std::string& output) {
  PerftreeReading reading;
  const std::vector<std::string> lines = lines_of(output);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("Nodes searched: ", 0) == 0) {
      reading.total = std::stoll(line.substr(16));
      break;
    }
    const std::size_t colon = line.find(": ");
    if (colon != std::string::npos) reading.divide[line.substr(0, colon)] = std::stoll(line.substr(colon + 2));
  }
  return reading;
}

std::string uci_run(const std::string& input) {
  return run_shell("printf '" + input + "' | " + perftkit::test_paths::perftkit_binary() + " uci").output;
}

TEST(UciMode, AnswersPerftreeAsStockfishWould) {
  // perftree's lines: a FEN, its moves, `go perft N`. Kiwipete after e1g1 (castled as
  // the king's two-square step) and a black reply, perft 2.
  const PerftreeReading r = read_as_perftree(
      uci_run("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 h3g2\\n"
              "go perft 1\\nquit\\n"));
  // After h3xg2 White may recapture with the king: perft 1 counted by the CPU core.
  const std::string reference = run_perftkit(
                                    "perft --depth 1 --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w "
                                    "KQkq - 0 1' --moves e1g1 h3g2")
                                    .output;
  ASSERT_NE(r.total, -1);
  EXPECT_NE(reference.find("Nodes searched: " + std::to_string(r.total)), std::string::npos) << reference;
  EXPECT_EQ(long(r.divide.size()), r.total);  // depth 1: one leaf per move
  EXPECT_EQ(r.divide.count("g1g2"), 1u);      // the recapture

  // The start position after 1. e2e4, perft 3: the published divide of e2e4 at depth 4.
  const PerftreeReading start =
      read_as_perftree(uci_run("uci\\nisready\\nposition startpos moves e2e4\\ngo perft 3\\nquit\\n"));
  EXPECT_EQ(start.total, 13160);  // perft(4) divide of e2e4 from the start: 13,160
  EXPECT_EQ(start.divide.size(), 20u);
  long long sum = 0;
  for (const auto& [move, count] : start.divide) sum += count;
  EXPECT_EQ(sum, start.total);
}

TEST(UciMode, IdentifiesItselfAndItsOptions) {
  const std::string out = uci_run("uci\\nisready\\nquit\\n");
  EXPECT_NE(out.find("id name perftkit"), std::string::npos) << out;
  EXPECT_NE(out.find("option name UCI_Chess960 type check"), std::string::npos) << out;
  EXPECT_NE(out.find("uciok"), std::string::npos) << out;
  EXPECT_NE(out.find("readyok"), std::string::npos) << out;
}

// Garbage, bad FENs, illegal moves and bad numbers: an error line each, the position kept,
// the loop still answering afterwards.
TEST(UciMode, GarbageGetsErrorsAndTheLoopStaysUp) {
  std::ostringstream out;
  UciSession session(out);
  for (const char* line :
       {"xyzzy", "position fen this is not a fen", "position startpos moves e2e4 e7e5 e1e3", "position", "go perft -1",
        "go perft 99", "go depth 5", "go", "setoption name Threads value abc", "setoption name Hash value -3",
        "setoption name Nonsense value 1", "setoption", "\x01\x02\xff binary",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1"})
    EXPECT_TRUE(session.handle(line)) << line;
  const std::vector<std::string> replies = lines_of(out.str());
  ASSERT_EQ(replies.size(), 14u) << out.str();
  for (const std::string& reply : replies) EXPECT_EQ(reply.rfind("info string error: ", 0), 0u) << reply;
  EXPECT_NE(out.str().find("'e1e3' is not legal"), std::string::npos) << out.str();

  // Still the start position (the bad `position` lines changed nothing).
  EXPECT_TRUE(session.handle("isready"));
  EXPECT_TRUE(session.handle("go perft 2"));
  EXPECT_NE(out.str().find("readyok"), std::string::npos);
  EXPECT_NE(out.str().find("Nodes searched: 400"), std::string::npos) << out.str();
  EXPECT_FALSE(session.handle("quit"));
}

TEST(UciMode, Chess960OptionWritesCastlingAsKingTakesRook) {
  std::ostringstream out;
  UciSession session(out);
  EXPECT_TRUE(session.handle("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  EXPECT_TRUE(session.handle("go perft 1"));
  EXPECT_NE(out.str().find("e1g1: 1"), std::string::npos) << out.str();
  EXPECT_TRUE(session.handle("setoption name UCI_Chess960 value true"));
  EXPECT_TRUE(session.handle("go perft 1"));
  EXPECT_NE(out.str().find("e1h1: 1"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("error"), std::string::npos) << out.str();
}

TEST(PerftreeCommand, PrintsPerftreesFormat) {
  const auto r = run_perftkit("perftree 3 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 'e2e4 e7e5'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = lines_of(r.output);
  ASSERT_GE(lines.size(), 3u);
  // `move count` lines, a blank line, the total.
  EXPECT_EQ(lines[lines.size() - 2], "");
  long long sum = 0;
  for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
    const std::size_t space = lines[i].find(' ');
    ASSERT_NE(space, std::string::npos) << lines[i];
    sum += std::stoll(lines[i].substr(space + 1));
  }
  // White's moves after 1. e4 e5, counted by hand: 14 pawn moves, 2 + 3 knight moves
  // (Nb1-a3/c3, Ng1-e2/f3/h3), 5 bishop moves, 4 queen moves, Ke2.
  EXPECT_EQ(lines.size() - 2, 29u);
  EXPECT_EQ(std::to_string(sum), lines.back());
  const auto reference = run_perftkit("perft --depth 3 --moves e2e4 e7e5");
  EXPECT_NE(reference.output.find("Nodes searched: " + lines.back()), std::string::npos) << reference.output;
}

TEST(PerftreeCommand, BadInputExitsTwoWithTheReason) {
  const auto bad_move = run_perftkit("perftree 2 startpos 'e2e4 e2e4'");
  EXPECT_EQ(bad_move.exit_code, 2);
  EXPECT_NE(bad_move.output.find("move 2 'e2e4' is not legal"), std::string::npos) << bad_move.output;
  const auto bad_fen = run_perftkit("perftree 2 'not a fen'");
  EXPECT_EQ(bad_fen.exit_code, 2);
  EXPECT_NE(bad_fen.output.find("invalid FEN"), std::string::npos) << bad_fen.output;
}

// `--moves` takes one space-separated argument (as perftree passes moves) or several.
TEST(PerftMoves, OneArgumentOrSeveralGiveTheSameRoot) {
  const auto one = run_perftkit("perft --depth 1 --moves 'e2e4 e7e5'");
  const auto several = run_perftkit("perft --depth 1 --moves e2e4 e7e5");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_NE(one.output.find("Nodes searched: 29"), std::string::npos) << one.output;  // White's 29 moves
  EXPECT_EQ(one.output.substr(one.output.find("Nodes")), several.output.substr(several.output.find("Nodes")));
}

// --each: one line per depth, the published start-position counts 1 to 4.
TEST(PerftEach, PrintsEveryDepthUpToTheLast) {
  const auto r = run_perftkit("perft --depth 4 --each 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = lines_of(r.output);
  ASSERT_EQ(lines.size(), 4u) << r.output;
  const char* expected[] = {"perft(1) = 20 ", "perft(2) = 400 ", "perft(3) = 8902 ", "perft(4) = 197281 "};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(lines[i].rfind(expected[i], 0), 0u) << lines[i];
  const auto refused = run_perftkit("perft --depth 2 --each --divide");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("--each"), std::string::npos) << refused.output;
  // --json: one object, each depth's count in "depths" (#65: --each --json was refused).
  const auto json = run_perftkit("perft --depth 3 --each --json 2>/dev/null");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_EQ(json.output.rfind("{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\",\"depths\":[", 0),
            0u)
      << json.output;
  for (const char* count : {"\"depth\":1,\"nodes\":20,", "\"depth\":2,\"nodes\":400,", "\"depth\":3,\"nodes\":8902,"})
    EXPECT_NE(json.output.find(count), std::string::npos) << json.output;
  EXPECT_EQ(lines_of(json.output).size(), 1u) << json.output;
}

}  // namespace
}  // namespace perftkit
