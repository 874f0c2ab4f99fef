// Classifying positions in batches (classify_batch.hpp, reached through every CPU kernel
// level this machine runs) against classify() one position at a time, whose move counts the
// published perft tests pin down: both sides to move mixed in one batch, batches of every
// size, checks, pins, en passant, promotions, Chess960 castling, mates and stalemates.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "perft/cpu_kernels.hpp"
#include "perftkit/movegen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using test_positions::position_from_fen;

// Every node from pos down to `depth` plies, in the order a search meets them (so that the
// sides to move alternate along the list).
void collect(const Position& pos, int depth, std::vector<Position>& out) {
  out.push_back(pos);
  if (depth > 0) for_each_legal_move(pos, [&](const Position& child, Move) { collect(child, depth - 1, out); });
}

void expect_same(const Classification& got, const Classification& want, const std::string& where) {
  EXPECT_EQ(got.legal_moves, want.legal_moves) << where;
  EXPECT_EQ(got.checkers, want.checkers) << where;
  EXPECT_EQ(got.repetitions, want.repetitions) << where;
  EXPECT_EQ(got.in_check, want.in_check) << where;
  EXPECT_EQ(got.checkmate, want.checkmate) << where;
  EXPECT_EQ(got.stalemate, want.stalemate) << where;
  EXPECT_EQ(got.insufficient_white, want.insufficient_white) << where;
  EXPECT_EQ(got.insufficient_black, want.insufficient_black) << where;
  EXPECT_EQ(got.fifty_move, want.fifty_move) << where;
  EXPECT_EQ(got.seventyfive_move, want.seventyfive_move) << where;
  EXPECT_EQ(got.dead, want.dead) << where;
  EXPECT_EQ(got.termination, want.termination) << where;
  EXPECT_EQ(got.winner, want.winner) << where;
}

std::vector<const CpuKernels*> supported_levels() {
  std::vector<const CpuKernels*> levels;
  for (const CpuKernelLevel& level : cpu_kernel_levels())
    if (level.supported) levels.push_back(level.kernels);
  return levels;
}

TEST(ClassifyInBatches, EveryLevelAgreesWithClassifyOnMixedSidesToMove) {
  const std::pair<const char*, int> roots[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2},
      {test_positions::KIWIPETE, 2},
      {test_positions::POSITION3, 3},
      {test_positions::POSITION4, 2},
      {test_positions::POSITION4_MIRRORED, 2},
      {test_positions::POSITION5, 2},
      {test_positions::POSITION6, 2},
      // Chess960 castling the vector rule hands to the scalar generator, en passant pinned
      // along a rank, a board too full for one batch, and clocks at the draw rules.
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 2},
      {"4k3/p7/8/8/8/8/P7/rR2K3 w B - 0 1", 3},
      {"8/2p5/8/KP5r/8/8/7P/7k w - - 0 1", 3},
      {test_positions::MANY_MOVES, 1},
      {"8/8/8/4k3/8/8/3B4/4K3 w - - 99 80", 2},
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 149 120", 2},
  };
  std::vector<Position> positions;
  for (const auto& [fen, depth] : roots) collect(position_from_fen(fen), depth, positions);
  ASSERT_GT(positions.size(), 10000u);
  std::vector<std::uint8_t> repetitions(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) repetitions[i] = std::uint8_t(i % 7);

  for (const CpuKernels* level : supported_levels()) {
    std::vector<Classification> out(positions.size());
    // Batches of every size from 1 to 40, so that lanes are left over at every count.
    std::size_t batches = 0;
    for (std::size_t first = 0; first < positions.size(); ++batches) {
      const std::size_t n = std::min(positions.size() - first, 1 + batches % 40);
      level->classify_batch(positions.data() + first, repetitions.data() + first, n, out.data() + first);
      first += n;
    }
    for (std::size_t i = 0; i < positions.size(); ++i)
      expect_same(out[i], classify(positions[i], repetitions[i]),
                  std::string(level->name) + " " + to_fen(positions[i]));
    if (HasFailure()) return;  // (one level's list of differences is enough)
  }
}

TEST(ClassifyInBatches, WithoutRepetitionsEveryPositionCountsNone) {
  const Position pos = position_from_fen(test_positions::KIWIPETE);
  for (const CpuKernels* level : supported_levels()) {
    Classification out{};
    level->classify_batch(&pos, nullptr, 1, &out);
    EXPECT_EQ(out.legal_moves, 48) << level->name;
    EXPECT_EQ(out.repetitions, 0) << level->name;
    EXPECT_EQ(out.termination, Termination::NONE) << level->name;
  }
}

// Endings known from the rules, in one batch with both sides to move: the fool's mate,
// a stalemate, a double check, and a bare-kings position.
TEST(ClassifyInBatches, EveryLevelFindsMatesStalematesAndDoubleChecks) {
  const Position positions[] = {
      position_from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),  // fool's mate
      position_from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),                                 // stalemate
      position_from_fen("4k3/8/8/8/8/3n4/4r3/4K3 w - - 0 1"),  // rook and knight: double check
      position_from_fen("8/8/3k4/8/8/3K4/8/8 b - - 0 1"),
  };
  for (const CpuKernels* level : supported_levels()) {
    Classification out[4];
    level->classify_batch(positions, nullptr, 4, out);
    EXPECT_TRUE(out[0].checkmate) << level->name;
    EXPECT_EQ(out[0].legal_moves, 0) << level->name;
    EXPECT_EQ(out[0].checkers, 1) << level->name;
    EXPECT_EQ(out[0].winner, Winner::BLACK_WINS) << level->name;
    EXPECT_TRUE(out[1].stalemate) << level->name;
    EXPECT_FALSE(out[1].in_check) << level->name;
    EXPECT_EQ(out[1].termination, Termination::STALEMATE) << level->name;
    EXPECT_EQ(out[2].checkers, 2) << level->name;
    EXPECT_EQ(out[2].legal_moves, 3) << level->name;  // Kd1, Kf1 and Kxe2
    EXPECT_EQ(out[3].dead, DeadMaterial::KING_VS_KING) << level->name;
    EXPECT_EQ(out[3].legal_moves, 8) << level->name;
  }
}

}  // namespace
}  // namespace perftkit
