// `perftkit diff` against the test engine (tests/bug_engine): for each injected bug and each
// protocol, the descent must end on the exact minimal path with the exact missing or extra
// moves, named by their rule. Each expected path and move was worked out by hand from the
// position (see the comment of each case), not taken from perftkit. Misbehaving engines
// (crash, hang, garbage, moves that do not exist) must give a clear report, never "agree".
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "common/errors.hpp"
#include "enginediff/command_words.hpp"
#include "enginediff/divide_line.hpp"
#include "enginediff/move_rules.hpp"
#include "notation/uci.hpp"
#include "support/standard_positions.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;
using namespace test_positions;

// --- the pieces ---

TEST(DivideLine, ReadsEveryCommonSeparatorAndPromotionCase) {
  for (const char* text : {"e2e4: 20", "e2e4 20", "e2e4 - 20", "  e2e4:20  ", "E2E4 -20", "e2e4\t20"}) {
    const std::optional<DivideLine> line = parse_divide_line(text);
    ASSERT_TRUE(line) << text;
    EXPECT_EQ(line->move, "e2e4") << text;
    EXPECT_EQ(to_string_u128(line->count), "20") << text;
  }
  const std::optional<DivideLine> promotion = parse_divide_line("a7b8Q: 3");
  ASSERT_TRUE(promotion);
  EXPECT_EQ(promotion->move, "a7b8q");
  EXPECT_EQ(to_string_u128(promotion->count), "3");
  const std::optional<DivideLine> huge = parse_divide_line("e1h1 170141183460469231731687303715884105727");
  ASSERT_TRUE(huge);
  EXPECT_EQ(to_string_u128(huge->count), "170141183460469231731687303715884105727");
}

TEST(DivideLine, RejectsWhatIsNotAMoveAndACount) {
  for (const char* text :
       {"e2e4", "e2e4:", "e2e4: twenty", "e2e420", "Nodes searched: 20", "", "e9e4: 1", "e2e4: 20 nodes"})
    EXPECT_FALSE(parse_divide_line(text)) << text;
  EXPECT_TRUE(starts_with_move("e2e4: twenty"));
  EXPECT_FALSE(starts_with_move("Nodes: 20"));
}

// A move and a count, the move in SAN or another notation: the format is the problem.
TEST(DivideLine, TellsALineInAnotherNotation) {
  for (const char* text : {"Nf3: 20", "a3: 20", "exd5 3", "O-O: 12", "e8=Q+: 4", "Nbd7 - 30", "0-0 5"})
    EXPECT_TRUE(looks_like_other_notation(text)) << text;
  for (const char* text :
       {"e2e4: 20", "Nodes searched: 400", "Total: 400", "Depth 2: 400", "info depth 1", "Nf3: twenty", "Nf3", ""})
    EXPECT_FALSE(looks_like_other_notation(text)) << text;
}

TEST(CommandWords, SplitsAsAShellWouldWithoutOne) {
  EXPECT_EQ(split_command_words("./engine --x 'a b' \"c \\\" d\" e\\ f"),
            (std::vector<std::string>{"./engine", "--x", "a b", "c \" d", "e f"}));
  EXPECT_THROW(split_command_words("engine 'open"), UsageError);
  EXPECT_THROW(split_command_words("   "), UsageError);
  const std::vector<std::string> filled =
      fill_placeholders({"gen", "{fen}", "-d{depth}", "{moves}"}, "8/8/8/8/8/8/8/K6k w - - 0 1", 3, "a1a2");
  EXPECT_EQ(filled, (std::vector<std::string>{"gen", "8/8/8/8/8/8/8/K6k w - - 0 1", "-d3", "a1a2"}));
}

TEST(MoveRules, NamesWhyAMoveIsNotLegal) {
  // Position 3 after e2e4: f4xe3 would open the fourth rank between the rook b4 and the king h4.
  Position pos = position_from_fen(POSITION3);
  ASSERT_FALSE(play_uci_moves(pos, {"e2e4"}));
  EXPECT_EQ(rule_of_illegal_move(pos, "f4e3"), "en passant exposing the king along the rank");

  const Position start = position_from_fen("startpos");
  EXPECT_EQ(rule_of_illegal_move(start, "e1g1"), "castling through an occupied square");
  EXPECT_EQ(rule_of_illegal_move(start, "e2e5"), "not a move of that pawn");
  EXPECT_EQ(rule_of_illegal_move(start, "e7e5"), "moves a piece of the side not to move");
  EXPECT_EQ(rule_of_illegal_move(start, "e3e4"), "no piece on its from square");
  EXPECT_EQ(rule_of_illegal_move(start, "castle"), "not a move");
  // The knight e7 stands between the rook e1 and the king e8.
  EXPECT_EQ(rule_of_illegal_move(position_from_fen("4k3/4n3/8/8/8/8/8/4R1K1 b - - 0 1"), "e7c6"),
            "pinned piece leaves its pin line");
  // The rook d1 holds the d-file.
  EXPECT_EQ(rule_of_illegal_move(position_from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1"), "e8d8"), "king moves into check");
}

TEST(MoveRules, NamesTheKindOfALegalMove) {
  const Position start = position_from_fen("startpos");
  EXPECT_EQ(rule_of_legal_move(start, *parse_uci_move(start, "e2e4")), "pawn double push");
  EXPECT_EQ(rule_of_legal_move(start, *parse_uci_move(start, "g1f3")), "");
  const Position kiwipete = position_from_fen(KIWIPETE);
  EXPECT_EQ(rule_of_legal_move(kiwipete, *parse_uci_move(kiwipete, "e1g1")), "castling king side");
  EXPECT_EQ(rule_of_legal_move(kiwipete, *parse_uci_move(kiwipete, "e1c1")), "castling queen side");
  const Position promote = position_from_fen("8/P7/8/8/8/8/2K5/k7 w - - 0 1");
  EXPECT_EQ(rule_of_legal_move(promote, *parse_uci_move(promote, "a7a8n")), "underpromotion to a knight");
  EXPECT_EQ(rule_of_legal_move(promote, *parse_uci_move(promote, "a7a8q")), "promotion to a queen");
}

// --- the descent against the test engine ---

std::string engine_command(const std::string& bug, const std::string& protocol) {
  const std::string engine = std::string(test_paths::bug_engine_binary()) + " --bug " + bug;
  if (protocol == "uci") return engine + " uci";
  if (protocol == "perftree") return engine + " perftree";
  return engine + " divide {fen} {depth} {moves}";
}

// `perftkit diff` with the test engine; args are appended as they are (shell-quoted).
CommandResult run_diff(const std::string& bug, const std::string& protocol, const std::string& args) {
  return run_perftkit("diff --engine '" + engine_command(bug, protocol) + "' --protocol " + protocol + " --threads 2 " +
                      args);
}

// The value after "label" up to the end of its line in the text report.
std::string report_line(const std::string& output, const std::string& label) {
  const std::size_t at = output.find(label);
  if (at == std::string::npos) return "<no '" + label + "'>";
  const std::size_t start = at + label.size();
  return output.substr(start, output.find('\n', start) - start);
}

// The moves listed under a heading of the text report ("missing" or "extra"), each as
// "move (rule)": the count is the lister's own (the engine's, for an extra move).
std::set<std::string> listed_moves(const std::string& output, const std::string& heading) {
  std::set<std::string> moves;
  std::istringstream in(output);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  " + heading, 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("    ", 0) == 0) {
      const std::string entry = line.substr(4);
      const std::size_t count_end = entry.find("  (", entry.find("  ") + 2);
      moves.insert(entry.substr(0, entry.find("  ")) +
                   (count_end == std::string::npos ? "" : " " + entry.substr(count_end + 2)));
    } else {
      inside = false;
    }
  }
  return moves;
}

struct InjectedBug {
  const char* bug;
  const char* args;  // the root, its moves and the depth
  const char* path;  // the minimal path, worked out by hand
  std::set<std::string> extra;
  std::set<std::string> missing;
};

const InjectedBug INJECTED_BUGS[] = {
    // Position 3: after e2e4 the black pawn f4 may not take en passant, for the rook b4 would
    // see the king h4 along the fourth rank.
    {"ep-exposes-king",
     "--fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' --depth 3",
     "e2e4",
     {"f4e3 (en passant exposing the king along the rank)"},
     {}},
    // Only Rf1 attacks f8, the square the black king crosses; g8 stays safe.
    {"castle-through-attack",
     "--fen '4k2r/8/8/8/8/8/8/4K1R1 w k - 0 1' --depth 2",
     "g1f1",
     {"e8g8 (castling through an attacked square)"},
     {}},
    // Only Bxh1 takes a rook on its corner and leaves f1 and g1 unattacked.
    {"castle-without-rook",
     "--fen 'r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1' --depth 2",
     "g2h1",
     {"e1g1 (castling with its rook missing)"},
     {}},
    // The black king's only move is a1a2; then a7a8 may promote to four pieces.
    {"no-underpromotion",
     "--fen '8/P7/8/8/8/8/2K5/k7 b - - 0 1' --depth 2",
     "a1a2",
     {},
     {"a7a8b (underpromotion to a bishop)", "a7a8n (underpromotion to a knight)", "a7a8r (underpromotion to a rook)"}},
    // Only Re1 pins the knight e7 to the king e8; the knight then has six moves off the file.
    {"pinned-leaves-line",
     "--fen '4k3/4n3/8/8/8/8/8/R5K1 w - - 0 1' --depth 2",
     "a1e1",
     {"e7c6 (pinned piece leaves its pin line)", "e7c8 (pinned piece leaves its pin line)",
      "e7d5 (pinned piece leaves its pin line)", "e7f5 (pinned piece leaves its pin line)",
      "e7g6 (pinned piece leaves its pin line)", "e7g8 (pinned piece leaves its pin line)"},
     {}},
    // Only Rd7 puts a defended piece (the pawn c6 guards d7) beside the black king.
    {"king-takes-defended",
     "--fen '4k3/8/2P5/8/8/8/8/3R3K w - - 0 1' --depth 2",
     "d1d7",
     {"e8d7 (king captures a defended piece)"},
     {}},
    // After e2e4 and any reply, the stale e3 square lets d2 and f2 "capture"; every reply
    // differs by two, and ties go in UCI order: a7a5 first.
    {"ep-right-kept",
     "--fen startpos --moves e2e4 --depth 2",
     "e2e4 a7a5",
     {"d2e3 (en passant without the right (the last move was no double push beside it))",
      "f2e3 (en passant without the right (the last move was no double push beside it))"},
     {}},
    // Chess960: the king g1 already stands on its castling square; O-O only moves the rook h1
    // to f1. Every black king move differs by one; e8d7 comes first in UCI order.
    {"chess960-king-on-target",
     "--fen '4k3/8/8/8/8/8/8/6KR b H - 0 1' --chess960 --depth 2",
     "e8d7",
     {},
     {"g1h1 (castling (Chess960) with the king already on its target square)"}},
};

class EngineDiffInjectedBug : public ::testing::TestWithParam<std::tuple<InjectedBug, const char*>> {};

TEST_P(EngineDiffInjectedBug, FindsTheMinimalPathAndTheMoves) {
  const auto& [bug, protocol] = GetParam();
  const CommandResult result = run_diff(bug.bug, protocol, bug.args);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("differ: the generators part at"), std::string::npos) << result.output;
  EXPECT_EQ(report_line(result.output, "moves from the root: "), bug.path) << result.output;
  EXPECT_EQ(listed_moves(result.output, "extra"), bug.extra) << result.output;
  EXPECT_EQ(listed_moves(result.output, "missing"), bug.missing) << result.output;
  // The root counts differ (the descent starts where a user would see the bug).
  const std::string root = result.output.substr(0, result.output.find('\n'));
  const std::string perftkit_count = report_line(root, "perftkit "), engine_count = report_line(root, "engine ");
  EXPECT_NE(perftkit_count.substr(0, perftkit_count.find(' ')), engine_count.substr(0, engine_count.find(' '))) << root;
}

INSTANTIATE_TEST_SUITE_P(EveryBugEveryProtocol, EngineDiffInjectedBug,
                         ::testing::Combine(::testing::ValuesIn(INJECTED_BUGS),
                                            ::testing::Values("uci", "perftree", "divide")),
                         [](const auto& param_info) {
                           std::string name =
                               std::string(std::get<0>(param_info.param).bug) + "_" + std::get<1>(param_info.param);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(EngineDiff, AgreesWithACorrectEngineOnEveryProtocol) {
  for (const char* protocol : {"uci", "perftree", "divide"}) {
    const CommandResult result = run_diff("none", protocol, std::string("--fen '") + KIWIPETE + "' --depth 3");
    EXPECT_EQ(result.exit_code, 0) << protocol << "\n" << result.output;
    EXPECT_NE(result.output.find("agree: 97862 nodes at depth 3"), std::string::npos) << result.output;
  }
}

TEST(EngineDiff, ReadsCastlingInEitherFormWhateverTheMode) {
  // The engine writes e1g1 while perftkit (--chess960) writes e1h1, and the other way round.
  const std::string fen = std::string("--fen '") + KIWIPETE + "' --depth 3";
  const CommandResult standard_engine = run_perftkit("diff --engine '" + std::string(test_paths::bug_engine_binary()) +
                                                     " perftree' --protocol perftree --chess960 " + fen);
  EXPECT_EQ(standard_engine.exit_code, 0) << standard_engine.output;
  const CommandResult chess960_engine = run_perftkit("diff --engine '" + std::string(test_paths::bug_engine_binary()) +
                                                     " --chess960 perftree' --protocol perftree " + fen);
  EXPECT_EQ(chess960_engine.exit_code, 0) << chess960_engine.output;
  EXPECT_NE(chess960_engine.output.find("agree: 97862 nodes at depth 3"), std::string::npos) << chess960_engine.output;
}

TEST(EngineDiff, ReportsACrashNamingThePosition) {
  for (const char* protocol : {"uci", "perftree", "divide"}) {
    const CommandResult result = run_diff("crash", protocol, "--fen startpos --depth 3");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("engine crashed at rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
              std::string::npos)
        << protocol << "\n"
        << result.output;
    EXPECT_NE(result.output.find("signal 11"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("agree"), std::string::npos) << result.output;
  }
}

// Divide lines in SAN are the engine's format, not its move generator: whatever the
// protocol, perftkit says it could not read them, quotes one, suggests the protocol and
// template, and exits 2; it lists no move as missing (#63, case 4).
TEST(EngineDiff, DivideLinesInAnotherNotationAreAFormatProblem) {
  for (const char* protocol : {"uci", "perftree", "divide"}) {
    const CommandResult result = run_diff("san-lines", protocol, "--fen startpos --depth 2");
    EXPECT_EQ(result.exit_code, 2) << protocol << "\n" << result.output;
    EXPECT_NE(result.output.find("perftkit: error: the engine's output could not be read: no line is a UCI move"),
              std::string::npos)
        << protocol << "\n"
        << result.output;
    EXPECT_NE(result.output.find("and it printed 'Na3"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(" 20' (SAN or another notation?)"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("check --protocol"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("missing"), std::string::npos) << result.output;
  }
}

// An engine that crashes below the root: the report quotes the lines it printed for the
// position that crashed (none), not the root's divide lines before it (#63, case 4).
TEST(EngineDiff, ACrashReportQuotesTheCrashedPositionsLines) {
  const CommandResult result = run_diff("crash-below-root", "uci", "--fen startpos --depth 2");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("engine crashed at"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("last lines the engine printed"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("    | "), std::string::npos) << result.output;
}

TEST(EngineDiff, KillsAHangingEngineAfterItsTimeout) {
  for (const char* protocol : {"uci", "perftree"}) {
    const CommandResult result = run_diff("hang", protocol, "--fen startpos --depth 2 --engine-timeout 1");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("engine timed out at"), std::string::npos) << protocol << "\n" << result.output;
  }
}

TEST(EngineDiff, RefusesGarbageWithTheLastLinesPrinted) {
  for (const char* protocol : {"uci", "perftree"}) {
    const CommandResult result = run_diff("garbage", protocol, "--fen startpos --depth 2");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("engine unreadable output at"), std::string::npos) << protocol << "\n"
                                                                                    << result.output;
    EXPECT_NE(result.output.find("| #@!% garbage"), std::string::npos) << result.output;
  }
}

TEST(EngineDiff, ACountForAMoveThatDoesNotExistIsExtra) {
  const CommandResult result = run_diff("phantom-move", "uci", "--fen startpos --depth 2");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_EQ(report_line(result.output, "moves from the root: "), "(root)") << result.output;
  EXPECT_EQ(listed_moves(result.output, "extra"), (std::set<std::string>{"h3h5 (no piece on its from square)"}))
      << result.output;
}

TEST(EngineDiff, AnEngineThatCannotRunIsBadUsage) {
  const CommandResult missing = run_perftkit("diff --engine /nonexistent/engine --depth 2");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("cannot run '/nonexistent/engine'"), std::string::npos) << missing.output;
  const CommandResult no_placeholder = run_perftkit("diff --engine 'gen divide' --protocol divide --depth 2");
  EXPECT_EQ(no_placeholder.exit_code, 2) << no_placeholder.output;
  EXPECT_NE(no_placeholder.output.find("{fen}"), std::string::npos) << no_placeholder.output;
}

TEST(EngineDiff, JsonCarriesThePathAndTheMoves) {
  const CommandResult result =
      run_diff("castle-through-attack", "uci", "--fen '4k2r/8/8/8/8/8/8/4K1R1 w k - 0 1' --depth 2 --json");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("\"verdict\":\"differ\""), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\"extra\":[{\"move\":\"e8g8\",\"count\":1,\"count_string\":\"1\",\"rule\":\"castling "
                               "through an attacked square\"}]"),
            std::string::npos)
      << result.output;
}

TEST(EngineDiff, SuiteDescendsForEachFailingPosition) {
  const std::string suite = std::string(test_paths::test_data_dir()) + "/engine_diff_suite.epd";
  const CommandResult result = run_diff("ep-exposes-king", "uci", "--suite '" + suite + "' --depth 3");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("3 positions: 2 agree, 1 differ, 0 engine failures"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("engine_diff_suite.epd:3: agree, 8902 nodes at depth 3"), std::string::npos)
      << result.output;
  // Position 3 at depth 3: after e2e4 the black pawn f4 may not take en passant.
  EXPECT_EQ(report_line(result.output, "moves from the root: "), "e2e4") << result.output;
  // --max-nodes picks the deepest listed depth whose count is within it: D2 for all three.
  const CommandResult small = run_diff("none", "perftree", "--suite '" + suite + "' --max-nodes 500");
  EXPECT_EQ(small.exit_code, 0) << small.output;
  EXPECT_NE(small.output.find("engine_diff_suite.epd:3: agree, 400 nodes at depth 2"), std::string::npos)
      << small.output;
  EXPECT_NE(small.output.find("engine_diff_suite.epd:5: agree, 66 nodes at depth 2"), std::string::npos)
      << small.output;
}

TEST(EngineDiff, RandomPositionsAreTheSameForTheSameSeedAndFindBugs) {
  const CommandResult first = run_diff("no-underpromotion", "uci", "--random 30 --seed 11 --depth 3 --chess960");
  const CommandResult second = run_diff("no-underpromotion", "uci", "--random 30 --seed 11 --depth 3 --chess960");
  auto without_times = [](const std::string& text) {
    std::string kept;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find("engine calls") == std::string::npos) kept += line + "\n";
    return kept;
  };
  EXPECT_EQ(without_times(first.output), without_times(second.output));
  EXPECT_NE(first.output.find("chess960 #"), std::string::npos) << first.output;
  // Random play towards promotions finds positions where the missing underpromotions show.
  EXPECT_EQ(first.exit_code, 1) << first.output;
  EXPECT_NE(first.output.find("(underpromotion to a knight)"), std::string::npos) << first.output;
  const CommandResult correct = run_diff("none", "uci", "--random 30 --seed 11 --depth 3 --chess960");
  EXPECT_EQ(correct.exit_code, 0) << correct.output;
  EXPECT_NE(correct.output.find("30 positions: 30 agree, 0 differ, 0 engine failures"), std::string::npos)
      << correct.output;
}

// Stockfish, where it is installed (tests never need it): every position of standard.epd to
// depth 4 agrees, and the tricky.perft position that crashes Stockfish 15.1 comes back as a
// clean crash report.
TEST(EngineDiffStockfish, AgreesOnTheStandardSuiteAndReportsItsCrash) {
  const std::string stockfish = "/usr/games/stockfish";
  const std::string data = test_paths::shared_data_dir();
  if (!std::ifstream(stockfish) || !std::ifstream(data + "/perft/standard.epd"))
    GTEST_SKIP() << "no Stockfish or no shared data";
  const CommandResult standard =
      run_perftkit("diff --engine " + stockfish + " --suite " + data + "/perft/standard.epd --depth 4");
  EXPECT_EQ(standard.exit_code, 0) << standard.output;
  EXPECT_NE(standard.output.find("128 positions: 128 agree, 0 differ, 0 engine failures"), std::string::npos)
      << standard.output;
  const CommandResult tricky =
      run_perftkit("diff --engine " + stockfish + " --suite " + data + "/perft/tricky.perft --depth 3");
  if (tricky.output.find("ep-unrelated-check: agree") != std::string::npos)
    GTEST_SKIP() << "this Stockfish does not crash";
  EXPECT_EQ(tricky.exit_code, 1) << tricky.output;
  EXPECT_NE(tricky.output.find(
                "ep-unrelated-check: engine crashed at rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6"),
            std::string::npos)
      << tricky.output;
  EXPECT_NE(tricky.output.find("18 agree, 0 differ, 1 engine failures"), std::string::npos) << tricky.output;
}

}  // namespace
}  // namespace perftkit
