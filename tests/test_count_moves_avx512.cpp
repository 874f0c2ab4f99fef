// The eight-lane AVX-512 move counter against the scalar generator (whose counts the
// published perft tests pin down): every batch of siblings and every position alone,
// through the first plies of positions rich in checks, pins, en passant, promotions and
// (Chess960) castling. Perft's own tests exercise it too: the host perft counts with it.
#include <gtest/gtest.h>

#include <vector>

#include "perftkit/count_moves_avx512.hpp"
#include "perftkit/movegen.hpp"
#include "standard_positions.hpp"

namespace perftkit {
namespace {

#if PERFTKIT_HAS_AVX512_COUNT
template <Color Us>
std::uint64_t simd_count(const Position* positions, int n) {
  return avx512::count_moves_8<Us>(positions, n);
}

std::uint64_t simd_count(const Position* positions, int n) {
  return positions[0].side_to_move == WHITE ? simd_count<WHITE>(positions, n) : simd_count<BLACK>(positions, n);
}

// Compares the counters on every child of pos (in batches and alone), depth plies down;
// returns the number of batches compared.
int compare_below(const Position& pos, int depth) {
  std::vector<Position> children;
  for_each_legal_move(pos, [&](const Position& child, Move) { children.push_back(child); });
  int batches = 0;
  for (std::size_t i = 0; i < children.size(); i += 8) {
    const int n = int(std::min<std::size_t>(8, children.size() - i));
    std::uint64_t scalar = 0;
    for (int j = 0; j < n; ++j) {
      scalar += count_moves(children[i + j]);
      EXPECT_EQ(simd_count(&children[i + j], 1), count_moves(children[i + j])) << to_fen(children[i + j]);
    }
    EXPECT_EQ(simd_count(&children[i], n), scalar) << "children of " << to_fen(pos);
    ++batches;
  }
  if (depth > 1)
    for (const Position& child : children) batches += compare_below(child, depth - 1);
  return batches;
}
#endif

TEST(CountMovesAvx512, AgreesWithTheScalarGenerator) {
#if PERFTKIT_HAS_AVX512_COUNT
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
  };
  for (const char* fen : fens) {
    const Position pos = test_positions::position_from_fen(fen);
    EXPECT_GT(compare_below(pos, 3), 0) << fen;
  }
#else
  GTEST_SKIP() << "this build has no AVX-512 (F, DQ, VPOPCNTDQ) move counter";
#endif
}

}  // namespace
}  // namespace perftkit
