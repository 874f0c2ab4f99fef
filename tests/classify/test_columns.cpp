// `classify --columns` and `--tags`: the PGN game columns (game, ply, the move in UCI and SAN,
// [%clk] and [%eval]) and tag columns, checked on hand-written PGN (tests/data/
// classify_columns.pgn). Every expected value is read off that file by hand.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "classify/game_columns.hpp"
#include "support/cli_runner.hpp"
#include "support/test_paths.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;

using testing_support::lines_of;

// The fields of each row after the 19 classification columns (source, fen, ... flags).
std::vector<std::string> game_fields(const std::string& output) {
  std::vector<std::string> rows;
  for (const std::string& line : lines_of(output)) {
    std::size_t at = 0;
    for (int field = 0; field < 19; ++field) {
      // The only quoted classification fields here are none (valid rows, plain FENs).
      at = line.find(',', at) + 1;
    }
    rows.push_back(line.substr(at));
  }
  return rows;
}

TEST(CommentValues, ClocksAndEvals) {
  CommentValues v = read_comment_values("{ [%eval 0.45] [%clk 0:03:00] }");
  EXPECT_EQ(v.clock_seconds, 180.0);
  EXPECT_EQ(v.eval_cp, 45);
  EXPECT_FALSE(v.eval_mate);
  v = read_comment_values("{ [%clk 1:02:03.4] [%eval #-3] }");
  EXPECT_DOUBLE_EQ(*v.clock_seconds, 3723.4);
  EXPECT_EQ(v.eval_mate, -3);
  EXPECT_FALSE(v.eval_cp);
  EXPECT_EQ(read_comment_values("{[%eval -1.25]}").eval_cp, -125);
  EXPECT_EQ(read_comment_values("{[%eval #4]}").eval_mate, 4);
  EXPECT_FALSE(read_comment_values("{ no commands [%clk x:y] }").clock_seconds);
  EXPECT_FALSE(read_comment_values("").eval_cp);
}

// Every h:mm:ss spelling near lichess's (read in place, without a loop) gives the seconds its
// fields add up to, and a text that only looks like one is not read as one.
TEST(CommentValues, ClocksInLichessFormAreTheirFieldsInSeconds) {
  EXPECT_EQ(read_comment_values("{ [%clk 9:59:59] }").clock_seconds, 9 * 3600 + 59 * 60 + 59.0);
  EXPECT_EQ(read_comment_values("{ [%clk 1:02:03 ] }").clock_seconds, 3723.0);
  EXPECT_EQ(read_comment_values("{ [%clk   0:00:07] }").clock_seconds, 7.0);
  EXPECT_EQ(read_comment_values("{ [%clk 1:2:03] }").clock_seconds, 3723.0);
  EXPECT_EQ(read_comment_values("{ [%clk 12:02:03] }").clock_seconds, 12 * 3600 + 123.0);
  EXPECT_EQ(read_comment_values("{ [%clk 0:00:07.5] }").clock_seconds, 7.5);
  EXPECT_FALSE(read_comment_values("{ [%clk 1:02:0x] }").clock_seconds);
  EXPECT_FALSE(read_comment_values("{ [%clk 1-02:03] }").clock_seconds);
  EXPECT_FALSE(read_comment_values("{ [%clk 1:02:03x] }").clock_seconds);
  const CommentValues both = read_comment_values("{ [%clk 0:03:00][%eval 0.17] }");
  EXPECT_EQ(both.clock_seconds, 180.0);
  EXPECT_EQ(both.eval_cp, 17);
}

// lichess's two comment forms (read at fixed places) and texts one step away from them (read
// by the general reader): each gives the values its commands say.
TEST(CommentValues, LichessCommentFormsAndTheirNearMisses) {
  struct Case {
    const char* text;
    std::optional<double> clock;
    std::optional<int> eval_cp, eval_mate;
  };
  const Case cases[] = {
      {"{ [%clk 0:02:55] }", 175.0, {}, {}},
      {"{ [%eval 2.81] [%clk 0:02:55] }", 175.0, 281, {}},
      {"{ [%eval -0.4] [%clk 1:00:00] }", 3600.0, -40, {}},
      {"{ [%eval  7] [%clk 0:00:09] }", 9.0, 700, {}},
      {"{ [%eval #4] [%clk 0:02:59] }", 179.0, {}, 4},
      {"{ [%eval 0.45 ] [%clk 0:02:55] }", 175.0, 45, {}},
      {"{ [%eval 0.45][%clk 0:02:55] }", 175.0, 45, {}},
      {"{ [%eval 0.45] [%clk 0:02:55]}", 175.0, 45, {}},
      {"{ [%eval 0.45] [%clk 0:02:55] } { [%clk 0:01:00] }", 175.0, 45, {}},
      {"{ [%clk 0:02:55] [%eval 0.45] }", 175.0, 45, {}},
      {"{ [%clk 0:02:5x] }", {}, {}, {}},
      {"{ [%clk 10:02:55] }", 36175.0, {}, {}},
      {"{ [%eval 1.234] [%clk 0:02:55] }", 175.0, 123, {}},
      {"{ [%eval x] [%clk 0:02:55] }", 175.0, {}, {}},
      {"{ [%clk 0:02:55] } ", 175.0, {}, {}},
      // The commonest form, [-]d.dd, and its near misses (other sizes, signs and bytes).
      {"{ [%eval -2.33] [%clk 0:02:47] }", 167.0, -233, {}},
      {"{ [%eval 0.07] [%clk 0:00:00] }", 0.0, 7, {}},
      {"{ [%eval -0.00] [%clk 9:59:59] }", 35999.0, 0, {}},
      {"{ [%eval +2.33] [%clk 0:02:47] }", 167.0, 233, {}},
      {"{ [%eval 12.33] [%clk 0:02:47] }", 167.0, 1233, {}},
      {"{ [%eval -12.3] [%clk 0:02:47] }", 167.0, -1230, {}},
      {"{ [%eval -2.3x] [%clk 0:02:47] }", 167.0, {}, {}},
      {"{ [%eval -2.33] [%clk 0:02:4x] }", {}, -233, {}},
      {"{ [%eval -2.33] [%clk 0:02:47]  }", 167.0, -233, {}},
      {"{ [%eval -2,33] [%clk 0:02:47] }", 167.0, {}, {}},
  };
  for (const Case& c : cases) {
    const CommentValues v = read_comment_values(c.text);
    EXPECT_EQ(v.clock_seconds, c.clock) << c.text;
    EXPECT_EQ(v.eval_cp, c.eval_cp) << c.text;
    EXPECT_EQ(v.eval_mate, c.eval_mate) << c.text;
  }
}

// The clock and eval numbers are the doubles std::from_chars reads from the same text (the
// reader takes a shortcut for plain decimals that must not change a single bit).
TEST(CommentValues, NumbersAreTheDoublesFromCharsReads) {
  const auto from_chars_value = [](const std::string& text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    EXPECT_TRUE(error == std::errc() && end == text.data() + text.size()) << text;
    return value;
  };
  std::mt19937_64 random(20261202);
  for (int i = 0; i < 20000; ++i) {
    std::string number = std::to_string(random() % 1000000);
    if (random() % 2) {  // 0 to 8 digits after the point: two or fewer take the centipawn shortcut
      std::string fraction;
      for (std::uint64_t d = random() % 9; d > 0; --d) fraction += char('0' + random() % 10);
      number += '.' + fraction;
    }
    if (random() % 5 == 0) number.insert(0, "0");
    const std::string signed_number = random() % 2 ? "-" + number : number;
    const CommentValues eval = read_comment_values("{ [%eval " + signed_number + "] }");
    ASSERT_TRUE(eval.eval_cp) << signed_number;
    EXPECT_EQ(*eval.eval_cp, int(std::lround(from_chars_value(signed_number) * 100))) << signed_number;
    const CommentValues clock = read_comment_values("{ [%clk 1:02:" + number + "] }");
    ASSERT_TRUE(clock.clock_seconds) << number;
    EXPECT_EQ(*clock.clock_seconds, 62 * 60 + from_chars_value(number)) << number;  // bit for bit
  }
  // Not plain decimals: read by from_chars itself, or refused.
  EXPECT_EQ(read_comment_values("{[%eval 1e2]}").eval_cp, 10000);
  EXPECT_EQ(read_comment_values("{[%eval .5]}").eval_cp, 50);
  EXPECT_EQ(read_comment_values("{[%eval 5.]}").eval_cp, 500);
  EXPECT_EQ(read_comment_values("{[%eval 0.1234567890123456789]}").eval_cp, 12);
  EXPECT_FALSE(read_comment_values("{[%eval +]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval 1.2.3]}").eval_cp);
  EXPECT_EQ(read_comment_values("{[%eval -0.42]}").eval_cp, -42);
  EXPECT_EQ(read_comment_values("{[%eval +0.42]}").eval_cp, 42);
  EXPECT_EQ(read_comment_values("{[%eval -0]}").eval_cp, 0);
  EXPECT_FALSE(read_comment_values("{[%eval +-1]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval --1]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval -]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval nan]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval -inf]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval 1e300]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%clk 0:10:-5]}").clock_seconds);
  EXPECT_EQ(read_comment_values("{[%clk 10:00]}").clock_seconds, 600.0);
  EXPECT_EQ(read_comment_values("{[%clk 1:00:00]}").clock_seconds, 3600.0);
  EXPECT_EQ(read_comment_values("{[%clk 1.5:00]}").clock_seconds, 90.0);
  EXPECT_FALSE(read_comment_values("{[%clk 1:2:3:4]}").clock_seconds);
  EXPECT_FALSE(read_comment_values("{[%clk 100]}").clock_seconds);
  EXPECT_FALSE(read_comment_values("{[%clk 1::00]}").clock_seconds);
  EXPECT_EQ(read_comment_values("{[%eval 1000000]}").eval_cp, 100000000);
  // The usual forms are read in one pass; their edges, and the forms left to the general reader.
  EXPECT_EQ(read_comment_values("{[%clk 0:02:55 ]}").clock_seconds, 175.0);
  EXPECT_EQ(read_comment_values("{[%clk  9:59]}").clock_seconds, 599.0);
  EXPECT_EQ(read_comment_values("{[%clk 1234567:00]}").clock_seconds, 74074020.0);
  EXPECT_FALSE(read_comment_values("{[%clk 0:02:55").clock_seconds);  // no end to the argument
  EXPECT_EQ(read_comment_values("{[%eval  0.45]}").eval_cp, 45);
  EXPECT_EQ(read_comment_values("{[%eval -12 ]}").eval_cp, -1200);
  EXPECT_EQ(read_comment_values("{[%eval 0.455]}").eval_cp, 46);
  EXPECT_FALSE(read_comment_values("{[%eval 999999999]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval 1234567890]}").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval 0.45").eval_cp);
  EXPECT_FALSE(read_comment_values("{[%eval 1000000.01]}").eval_cp);
  // The first command of each name counts, even when it does not read.
  EXPECT_FALSE(read_comment_values("{[%clk ] [%clk 0:00:01]}").clock_seconds);
  EXPECT_EQ(read_comment_values("{[%evalx 3] [%eval 0.3]}").eval_cp, 30);
}

TEST(ClassifyColumns, GameColumnsFromHandWrittenPgn) {
  const std::string file = std::string(test_paths::test_data_dir()) + "/classify_columns.pgn";
  const CommandResult result = run_perftkit(
      "classify '" + file + "' --columns game,ply,move,clock,eval --tags White,Black,WhiteElo,BlackElo,TimeControl");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> rows = game_fields(result.output);
  ASSERT_EQ(rows.size(), 1u + 6 + 3) << result.output;  // header, 6 positions of game 1, 3 of game 2
  EXPECT_EQ(rows[0], "game,ply,move_uci,move_san,clock,eval_cp,eval_mate,White,Black,WhiteElo,BlackElo,TimeControl");
  const std::string tags1 = "\"Alice \"\"the Rook\"\" Smith\",Bob \\ Jones,2012,,180+2";
  EXPECT_EQ(rows[1], "1,0,,,,,," + tags1);  // the start: no move
  EXPECT_EQ(rows[2], "1,1,e2e4,e4,180,45,," + tags1);
  EXPECT_EQ(rows[3], "1,2,e7e5,e5,179.5,20,," + tags1);
  EXPECT_EQ(rows[4], "1,3,g1f3,Nf3,,,," + tags1);        // a remark, a NAG, variations
  EXPECT_EQ(rows[5], "1,4,b8c6,Nc6,3600,,-3," + tags1);  // mate in 3 for Black
  EXPECT_EQ(rows[6], "1,5,f1b5,Bb5,,-125,," + tags1);
  EXPECT_EQ(rows[7], "2,0,,,,,,,,,,");  // a game without tags
  EXPECT_EQ(rows[8], "2,1,d2d4,d4,9.9,,,,,,,");
  EXPECT_EQ(rows[9], "2,2,d7d5,d5,,,,,,,,");
}

TEST(ClassifyColumns, JsonLinesAreTypedAndAllTagsIsAnObject) {
  const std::string file = std::string(test_paths::test_data_dir()) + "/classify_columns.pgn";
  const CommandResult result =
      run_perftkit("classify '" + file +
                   "' --format jsonl --positions final --columns move,clock,eval --tags all,WhiteElo,BlackElo");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> rows = lines_of(result.output);
  ASSERT_EQ(rows.size(), 2u) << result.output;
  EXPECT_NE(
      rows[0].find("\"move_uci\":\"f1b5\",\"move_san\":\"Bb5\",\"clock\":null,\"eval_cp\":-125,\"eval_mate\":null,"
                   "\"WhiteElo\":2012,\"BlackElo\":null,\"tags\":{\"Event\":\"Rated Blitz game\","
                   "\"Site\":\"https://lichess.org/abcd1234\",\"White\":\"Alice \\\"the Rook\\\" Smith\","
                   "\"Black\":\"Bob \\\\ Jones\",\"Result\":\"1-0\",\"WhiteElo\":\"2012\",\"BlackElo\":\"?\","
                   "\"TimeControl\":\"180+2\"}}"),
      std::string::npos)
      << rows[0];
  EXPECT_NE(rows[1].find("\"move_uci\":\"d7d5\",\"move_san\":\"d5\",\"clock\":null,\"eval_cp\":null,\"eval_mate\":null,"
                         "\"WhiteElo\":null,\"BlackElo\":null,\"tags\":{}}"),
            std::string::npos)
      << rows[1];
}

// The batched path (the GPU's, run here on its CPU twin) holds rows until the block's batch
// is classified: the game columns must survive that.
TEST(ClassifyColumns, TheBatchedPathWritesTheSameRows) {
  const std::string file = std::string(test_paths::test_data_dir()) + "/classify_columns.pgn";
  const std::string args = " --columns game,ply,move,clock,eval --tags all,White,BlackElo '" + file + "'";
  const CommandResult cpu = run_perftkit("classify --backend cpu" + args);
  const CommandResult batched = run_perftkit("classify --backend pipeline" + args);
  ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
  ASSERT_EQ(batched.exit_code, 0) << batched.output;
  EXPECT_EQ(batched.output, cpu.output);
}

TEST(ClassifyColumns, TheDefaultRowsStayAsTheyWere) {
  const std::string file = std::string(test_paths::test_data_dir()) + "/classify_columns.pgn";
  const CommandResult plain = run_perftkit("classify '" + file + "'");
  ASSERT_EQ(plain.exit_code, 0);
  EXPECT_EQ(lines_of(plain.output)[0],
            "source,fen,id,valid,error,legal_moves,in_check,checkers,checkmate,stalemate,insufficient_white,"
            "insufficient_black,dead_by_material,fifty_move,seventyfive_move,repetitions,outcome,winner,flags");
  const CommandResult unknown = run_perftkit("classify '" + file + "' --columns clocks");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("--columns: unknown column 'clocks'"), std::string::npos) << unknown.output;
}

}  // namespace
}  // namespace perftkit
