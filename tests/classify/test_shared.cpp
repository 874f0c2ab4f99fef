// classify on the shared reference data (../shared/data/positions), against the figures
// python-chess 1.11 gives; each test skips with a message when the data is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "classify/format.hpp"
#include "classify/lines.hpp"
#include "classify/position_line.hpp"
#include "notation/fen.hpp"
#include "perftkit/classify.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

std::string shared_file(const char* name) {
  return std::string(perftkit::test_paths::shared_data_dir()) + "/positions/" + name;
}

bool read_shared(const std::string& path, std::string& text) {
  if (!std::filesystem::exists(path)) return false;
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

// lichess-30K-games.txt: "FEN6 GAMEID" lines, the final positions of games lost on time.
TEST(ClassifyShared, Lichess30KMatchesPythonChess) {
  const std::string path = shared_file("lichess-30K-games.txt");
  std::string text;
  if (!read_shared(path, text)) GTEST_SKIP() << "shared data not found: " << path;
  RowFormatter formatter(RowFormat::CSV, "lichess");
  ByteBuffer out;
  ClassifySummary s;
  EXPECT_EQ(classify_lines(text, 1, formatter, out, s), 0u);
  EXPECT_EQ(s.rows, 30000u);
  EXPECT_EQ(s.valid, 30000u);
  EXPECT_EQ(s.game_over, 0u);
  EXPECT_EQ(s.checkmate + s.stalemate + s.dead_by_material + s.seventyfive_move, 0u);
  EXPECT_EQ(s.in_check, 5650u);
  EXPECT_EQ(s.insufficient_side_to_move[WHITE] + s.insufficient_side_to_move[BLACK], 859u);
  EXPECT_EQ(s.insufficient_side_to_move[WHITE], 436u);  // White to move
  EXPECT_EQ(s.insufficient_side_to_move[BLACK], 423u);  // Black to move
  EXPECT_EQ(s.insufficient_side_not_to_move[WHITE] + s.insufficient_side_not_to_move[BLACK], 0u);
}

// test-vector.txt: "XY EPD4" lines from the Chess Unwinnability Analyzer; X = 'W' when White
// can still mate by some sequence, Y = 'B' when Black can. The material rule is sound: it
// never calls a side that can mate unable to, and flags 31 of the 806 dead positions.
TEST(ClassifyShared, TestVectorNeverDeadWhenWinnable) {
  const std::string path = shared_file("test-vector.txt");
  std::string text;
  if (!read_shared(path, text)) GTEST_SKIP() << "shared data not found: " << path;
  std::istringstream in(text);
  int positions = 0, rejected = 0, dead_of_dead = 0, rejected_line = 0, line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    ++positions;
    const std::string label = line.substr(0, 2);
    const PositionLine split = split_position_line(std::string_view(line).substr(3));
    const FenResult parsed = parse_fen(split.position);
    if (!parsed) {  // the file has one line with only two fields
      ++rejected;
      rejected_line = line_number;
      continue;
    }
    const Classification c = classify(parsed->position);
    const bool white_can_win = label[0] == 'W', black_can_win = label[1] == 'B';
    if (white_can_win) {
      EXPECT_FALSE(c.insufficient_white) << line;
    }
    if (black_can_win) {
      EXPECT_FALSE(c.insufficient_black) << line;
    }
    if (white_can_win || black_can_win) {
      EXPECT_FALSE(c.dead_by_material()) << line;
    }
    if (label == "--") dead_of_dead += c.dead_by_material();
    EXPECT_EQ(c.dead_by_material(), c.insufficient_white && c.insufficient_black) << line;
  }
  EXPECT_EQ(positions, 1803);
  EXPECT_EQ(rejected, 1);
  EXPECT_EQ(rejected_line, 1473);
  EXPECT_EQ(dead_of_dead, 31);
}

}  // namespace
}  // namespace perftkit
