// Every level of CPU kernels this machine can run (cpu_kernels.hpp) against the published
// counts: plain, hashed and with statistics. Levels the CPU lacks are listed but not run;
// tests/checks/portable_binary.cmake runs the whole binary on emulated older CPUs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perft/cpu_kernels.hpp"
#include "perftkit/movegen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using test_positions::CI_DEPTH_COUNTS;
using test_positions::position_from_fen;

TEST(CpuKernels, LevelsAreFastestFirstAndEndWithThePortableOne) {
  const std::vector<CpuKernelLevel> levels = cpu_kernel_levels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.back().kernels, &CPU_KERNELS_PORTABLE);
  EXPECT_TRUE(levels.back().supported);
  std::set<std::string> names;
  for (const CpuKernelLevel& level : levels) EXPECT_TRUE(names.insert(level.kernels->name).second);
  if (levels.size() > 1) {
    EXPECT_EQ(std::string(levels[0].kernels->name), "avx512");
    EXPECT_EQ(std::string(levels[1].kernels->name), "avx2_bmi2");
    if (levels[0].supported) {
      EXPECT_TRUE(levels[1].supported);  // AVX-512's level includes AVX2's
    }
  }
}

TEST(CpuKernels, TheChosenLevelIsTheFastestThisCpuRuns) {
  if (const char* asked = std::getenv("PERFTKIT_CPU_KERNEL"); asked && *asked)
    GTEST_SKIP() << "PERFTKIT_CPU_KERNEL=" << asked << " chooses the level";
  for (const CpuKernelLevel& level : cpu_kernel_levels())
    if (level.supported) {
      EXPECT_EQ(&cpu_kernels(), level.kernels);
      return;
    }
}

TEST(CpuKernels, EveryLevelCountsThePublishedTrees) {
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    for (const auto& c : CI_DEPTH_COUNTS)
      EXPECT_EQ(u128(level.kernels->perft(position_from_fen(c.fen), c.depth)), c.nodes)
          << level.kernels->name << " " << c.name;
  }
}

TEST(CpuKernels, EveryLevelCountsThePublishedTreesWithATable) {
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    PerftTable table(std::size_t(16) << 20);
    const KeySet keys(7);
    for (const auto& c : CI_DEPTH_COUNTS) {
      const Position pos = position_from_fen(c.fen);
      EXPECT_EQ(u128(level.kernels->perft_hashed(pos, c.depth, table, keys)), c.nodes)
          << level.kernels->name << " " << c.name;
      EXPECT_EQ(u128(level.kernels->perft_hashed(pos, c.depth, table, keys)), c.nodes)
          << level.kernels->name << " " << c.name << ", from the table";
    }
  }
}

// Every level this CPU runs counts perft(fen, depth) of each case as the portable one does.
template <std::size_t N>
void expect_every_level_agrees_with_the_portable_one(const std::pair<const char*, int> (&cases)[N]) {
  const CpuKernels& portable = CPU_KERNELS_PORTABLE;
  for (const auto& [fen, depth] : cases) {
    const Position pos = position_from_fen(fen);
    const std::uint64_t expected = portable.perft(pos, depth);
    EXPECT_GT(expected, 0u) << fen;
    for (const CpuKernelLevel& level : cpu_kernel_levels())
      if (level.supported) {
        EXPECT_EQ(level.kernels->perft(pos, depth), expected) << level.kernels->name << " " << fen;
      }
  }
}

// Positions whose castling and en passant the batched counters must get right (or hand
// back): Chess960 kings and rooks, an enemy rook on the first rank behind a blocker or
// behind the castling rook itself (which shields the king's path only until it moves),
// rights on both wings with en passant, en passant pinned along a rank or a diagonal, and
// boards too full for one batch.
TEST(CpuKernels, EveryLevelAgreesWithThePortableOneOnCastlingAndEnPassantEdges) {
  // Odd depths: the batched counters count the leaves, whose side to move is the root's; the
  // pawns give both sides moves that keep the castling rights.
  const std::pair<const char*, int> cases[] = {
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3},
      {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 3},
      {"r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1", 3},
      {"4k3/p7/8/8/8/8/P7/rN2K2R w K - 0 1", 5},
      {"4k3/p7/8/8/8/8/P7/rR2K3 w B - 0 1", 5},
      {"Rr2k3/p7/8/8/8/8/P7/4K3 b b - 0 1", 5},
      {"r3k2r/p6p/8/8/8/8/P6P/RqN1K2R w KQkq - 0 1", 3},
      {"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", 3},
      {"r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1", 3},
      {"kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", 3},
      // En passant that would bare the king along the rank, or on a diagonal.
      {"8/2p5/8/KP5r/8/8/7P/7k w - - 0 1", 5},
      {"7K/7p/8/8/kp5R/8/2P5/8 b - - 0 1", 5},
      {"8/4p3/8/3P4/8/1K6/7P/6bk w - - 0 1", 5},
  };
  expect_every_level_agrees_with_the_portable_one(cases);
}

// The fields the last ply's counter reads are make_move()'s.
bool same_counted_fields(const Position& a, const Position& b) {
  return a.by_color[WHITE] == b.by_color[WHITE] && a.by_color[BLACK] == b.by_color[BLACK] && a.pawns == b.pawns &&
         a.knights == b.knights && a.diagonal == b.diagonal && a.orthogonal == b.orthogonal && a.kings == b.kings &&
         a.castling_rooks == b.castling_rooks && a.ep_square == b.ep_square && a.side_to_move == b.side_to_move;
}

// Compares every level's children for counting with the generator's, in order, at pos and
// each node below it, depth plies down.
void compare_children_below(const Position& pos, int depth) {
  std::vector<Position> expected;
  for_each_legal_move(pos, [&](const Position& child, Move) { expected.push_back(child); });
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    const std::vector<Position> children = level.kernels->children_for_counting(pos);
    ASSERT_EQ(children.size(), expected.size()) << level.kernels->name << " " << to_fen(pos);
    for (std::size_t i = 0; i < children.size(); ++i)
      ASSERT_TRUE(same_counted_fields(children[i], expected[i]))
          << level.kernels->name << " " << to_fen(pos) << ", child " << i << ": " << to_fen(children[i]) << " for "
          << to_fen(expected[i]);
  }
  if (depth > 1)
    for (const Position& child : expected) compare_children_below(child, depth - 1);
}

// Every kind of move, as the levels write the children whose moves the last ply counts:
// castling (Chess960 too) and the rights a king or rook move or a rook capture takes away,
// double pushes with and without an enemy pawn beside them (the en-passant square is
// recorded only with one), en passant, promotions with and without capture, and a node with
// more children than the buffer holds.
TEST(CpuKernels, EveryLevelWritesTheGeneratorsChildrenForCounting) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      test_positions::KIWIPETE,
      test_positions::POSITION4,
      test_positions::POSITION5,
      "rnbqkbnr/ppp1p1pp/8/8/3p1p2/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
  };
  for (const char* fen : fens) compare_children_below(position_from_fen(fen), 2);
  compare_children_below(position_from_fen(test_positions::MANY_MOVES), 1);
}

// Nodes with more children than a level's buffers hold: MANY_MOVES (263 legal moves), and
// the same board with Black to move, whose few moves each leave White about 260, so that the
// two-ply batch of a depth-3 node counts one child's grandchildren early, apart.
TEST(CpuKernels, EveryLevelAgreesWithThePortableOneWhenChildrenOverflowTheBuffers) {
  const std::pair<const char*, int> cases[] = {
      {test_positions::MANY_MOVES, 2},
      {"kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ b - - 0 1", 3},
      {"kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQ2Q b - - 0 1", 3},
  };
  expect_every_level_agrees_with_the_portable_one(cases);
}

// The Chess Programming Wiki's detailed counts: Kiwipete at depth 3, position 3 at depth 5.
struct PublishedStats {
  const char* fen;
  int depth;
  std::vector<std::pair<StatField, std::uint64_t>> counts;
};

TEST(CpuKernels, EveryLevelCountsThePublishedStatistics) {
  const PublishedStats published[] = {
      {test_positions::KIWIPETE,
       3,
       {{NODES, 97862},
        {CAPTURES, 17102},
        {EN_PASSANT_CAPTURES, 45},
        {CASTLES, 3162},
        {PROMOTIONS, 0},
        {CHECKS, 993},
        {CHECKMATES, 1}}},
      {test_positions::POSITION3,
       5,
       {{NODES, 674624},
        {CAPTURES, 52051},
        {EN_PASSANT_CAPTURES, 1165},
        {CHECKS, 52950},
        {DISCOVERED_CHECKS, 1292},
        {DOUBLE_CHECKS, 3},
        {CHECKMATES, 0}}},
  };
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    for (const PublishedStats& p : published) {
      LeafStats stats{};
      level.kernels->perft_stats(position_from_fen(p.fen), p.depth, stats);
      for (const auto& [field, count] : p.counts)
        EXPECT_EQ(stats[field], count) << level.kernels->name << " " << p.fen << " field " << int(field);
    }
  }
}

}  // namespace
}  // namespace perftkit
