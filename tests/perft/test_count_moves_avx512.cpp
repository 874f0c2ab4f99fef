// The batched move counters of the faster CPU kernel levels (AVX-512: eight lanes at once;
// AVX2: PEXT lookups) against the portable level's scalar generator (whose counts the
// published perft tests pin down): for every node through the first plies of positions rich
// in checks, pins, en passant, promotions and (Chess960) castling, the two-ply count, which
// counts the node's children as batches of siblings. The levels are reached through the
// dispatched kernels, so this runs in the portable build on any CPU that has them.
#include <gtest/gtest.h>

#include <vector>

#include "perft/cpu_kernels.hpp"
#include "perftkit/movegen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

// Compares every faster level with the portable one on pos and each node below it, depth
// plies down; returns the number of nodes compared.
int compare_below(const Position& pos, int depth, const std::vector<const CpuKernels*>& levels) {
  const std::uint64_t expected = CPU_KERNELS_PORTABLE.perft(pos, 2);
  for (const CpuKernels* level : levels) EXPECT_EQ(level->perft(pos, 2), expected) << level->name << " " << to_fen(pos);
  int nodes = 1;
  if (depth > 1)
    for_each_legal_move(pos, [&](const Position& child, Move) { nodes += compare_below(child, depth - 1, levels); });
  return nodes;
}

TEST(CountMovesAvx512, AgreesWithTheScalarGenerator) {
  std::vector<const CpuKernels*> levels;
  for (const CpuKernelLevel& level : cpu_kernel_levels())
    if (level.supported && level.kernels != &CPU_KERNELS_PORTABLE) levels.push_back(level.kernels);
  if (levels.empty()) GTEST_SKIP() << "this CPU runs only the portable kernels";
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      test_positions::KIWIPETE,
      test_positions::POSITION3,
      test_positions::POSITION4,
      test_positions::POSITION4_MIRRORED,
      test_positions::POSITION5,
      test_positions::POSITION6,
      // Chess960 castling (king and rooks off their usual files), double checks, many moves.
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
      "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
      "kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
      // Rooks and queens side by side on a rank or a file and on the board's edges: the
      // orthogonal rays are borrows of a subtraction, one per slider, that must neither cross
      // a rank's end nor run into each other.
      "R6R/1k6/8/8/6QQ/8/6K1/r3q2r w - - 0 1",
      "4k3/4r3/4r3/8/4Q3/4R3/8/4K3 w - - 0 1",
      "r6k/r6p/8/8/8/8/R6R/R3K2R w KQ - 0 1",
      "1q1rr2q/7k/7p/8/8/8/K7/QQ4RR b - - 0 1",
  };
  for (const char* fen : fens) {
    const Position pos = test_positions::position_from_fen(fen);
    EXPECT_GT(compare_below(pos, 3, levels), 1) << fen;
  }
}

}  // namespace
}  // namespace perftkit
