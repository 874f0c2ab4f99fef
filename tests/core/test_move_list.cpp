// The listed form of the move generator (move_list.hpp), which the pipeline's kernels use:
// the same moves in the same order as the visiting generator, and windows for positions
// with more moves than one list holds.
#include <gtest/gtest.h>

#include <vector>

#include "perftkit/move_list.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

std::vector<Move> visited_moves(const Position& pos) {
  std::vector<Move> moves;
  for_each_legal_move(pos, [&](const Position&, Move m) { moves.push_back(m); });
  return moves;
}

template <Color Us>
std::vector<Move> listed_moves(const Position& pos) {
  std::vector<Move> moves;
  for_each_listed_move<Us>(pos, [&](Move m) { moves.push_back(m); });
  return moves;
}

std::vector<Move> listed_moves(const Position& pos) {
  return pos.side_to_move == WHITE ? listed_moves<WHITE>(pos) : listed_moves<BLACK>(pos);
}

TEST(MoveList, ListsWhatTheVisitingGeneratorPlaysInItsOrder) {
  for (const char* fen : {"startpos", KIWIPETE, POSITION3, POSITION4, POSITION4_MIRRORED, POSITION5, POSITION6}) {
    const Position pos = position_from_fen(fen);
    const std::vector<Move> visited = visited_moves(pos);
    ASSERT_FALSE(visited.empty()) << fen;
    EXPECT_EQ(listed_moves(pos), visited) << fen;
  }
}

// Playing a listed move gives the child the visiting generator hands over.
TEST(MoveList, ListedMovesPlayToTheVisitedChildren) {
  for (const char* fen : {KIWIPETE, POSITION4, POSITION5}) {
    const Position pos = position_from_fen(fen);
    std::vector<Position> visited;
    for_each_legal_move(pos, [&](const Position& child, Move) { visited.push_back(child); });
    std::size_t i = 0;
    for (const Move m : listed_moves(pos)) {
      ASSERT_LT(i, visited.size()) << fen;
      EXPECT_TRUE(make_move(pos, m) == visited[i]) << fen << " move " << i;
      ++i;
    }
    EXPECT_EQ(i, visited.size()) << fen;
  }
}

// 263 moves: a first window of MAX_LEGAL_MOVES and a second of 7, each move once.
TEST(MoveList, MoreMovesThanOneListHoldsComeInWindows) {
  const Position pos = position_from_fen(MANY_MOVES);
  const std::vector<Move> listed = listed_moves(pos);
  ASSERT_EQ(listed.size(), 263u);
  EXPECT_GT(listed.size(), std::size_t(MAX_LEGAL_MOVES));
  EXPECT_EQ(listed, visited_moves(pos));
}

}  // namespace
}  // namespace perftkit
