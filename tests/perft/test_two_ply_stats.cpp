// The two plies above the leaves through the statistics table (two_ply_stats.hpp: on AVX-512
// the lanes of stats_lanes_avx512.hpp and the direct checks they hand to the scalar
// generator), on every CPU level this machine runs, against the core that plays and
// classifies every leaf (perft_stats with shortcuts off), counter for counter.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "perft/cpu_kernels.hpp"
#include "perft/stats_table.hpp"
#include "perftkit/movegen.hpp"
#include "perftkit/stats.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

// Every position `plies` plies or fewer below root, root included.
void collect_below(const Position& root, int plies, std::vector<Position>& out) {
  out.push_back(root);
  if (plies > 0) for_each_legal_move(root, [&](const Position& child, Move) { collect_below(child, plies - 1, out); });
}

// Compares the statistics `depth` plies deep (two: one two-ply count; three: the two-ply
// counts of the children that miss the table, together) of every position `plies` plies or
// fewer below each root. At depth three each child is then counted two plies deep through
// the same table too, which reads what the count of its parent stored for it.
void expect_stats_of_every_level(const std::vector<std::string>& fens, int plies, int depth) {
  std::vector<Position> roots;
  for (const std::string& fen : fens) collect_below(position_from_fen(fen), plies, roots);
  std::vector<std::pair<Position, int>> positions;
  for (const Position& root : roots) {
    positions.emplace_back(root, depth);
    if (depth == 3) for_each_legal_move(root, [&](const Position& child, Move) { positions.emplace_back(child, 2); });
  }
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    if (!level.supported) continue;
    StatsTable table(std::size_t(4) << 20);
    const KeySet keys(3);
    int mismatches = 0;
    for (const auto& [pos, plies_deep] : positions) {
      LeafStats reference{}, counted{};
      perft_stats(pos, plies_deep, reference, false);
      StatsTableUse use;
      level.kernels->perft_stats_hashed(pos, plies_deep, table, keys, counted, use);
      if (counted != reference && ++mismatches <= 5) {
        std::string fields;
        for (int f = 0; f < STAT_FIELD_NB; ++f)
          if (counted.count[f] != reference.count[f])
            fields += " field " + std::to_string(f) + ": " + std::to_string(counted.count[f]) + " for " +
                      std::to_string(reference.count[f]);
        ADD_FAILURE() << level.kernels->name << " " << to_fen(pos) << fields;
      }
    }
    EXPECT_EQ(mismatches, 0) << level.kernels->name << ", " << positions.size() << " positions";
  }
}

void expect_two_ply_stats_of_every_level(const std::vector<std::string>& fens, int plies) {
  expect_stats_of_every_level(fens, plies, 2);
}

// Middle games full of checks, pins, promotions and en passant: the published positions and
// every position two plies below them.
TEST(TwoPlyStats, EveryCounterOfThePublishedPositionsAndTheirDescendants) {
  expect_two_ply_stats_of_every_level({KIWIPETE, POSITION3, POSITION4, POSITION5,
                                       "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                                       "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"},
                                      2);
}

// The last ply's special moves: castling that checks with the rook (on the f- and d-files,
// along the first rank, Chess960), castling past an uncovered line, en passant that checks or
// uncovers a check, promotions that check, and a queen that checks along the other kind of
// line than the one it moved on.
TEST(TwoPlyStats, CastlingEnPassantPromotionsAndQueensThatCheck) {
  expect_two_ply_stats_of_every_level(
      {"5k2/8/8/8/8/8/8/4K2R b K - 0 1", "3k4/8/8/8/8/8/8/R3K3 b Q - 0 1", "8/8/8/8/8/8/8/k1K1R3 b E - 0 1",
       "4k3/8/8/8/8/8/4P3/Q3K2R b K - 0 1", "1k6/8/8/8/8/8/8/1RK4R b HB - 0 1", "2r1k3/8/8/8/8/8/8/R1BK3R b HA - 0 1",
       "4k3/2p5/8/1P1P4/8/8/8/4K2B b - - 0 1", "8/8/3k4/8/2pP4/8/8/3RK3 b - d3 0 1",
       "4k3/6pp/8/8/4p3/7N/P1KP4/6N1 w - - 0 1", "7k/1P6/8/8/8/8/6p1/K7 w - - 0 1",
       "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1",
       "3k4/8/8/1B6/8/8/8/3QK3 b - - 0 1"},
      2);
}

// Where the lanes' rules stop: clocks about to reach 99 (a leaf may then be drawn, which the
// lanes cannot see), few pawns and rooks left, and positions where Them may run out of moves
// (a capture of Them's last free piece stalemates).
TEST(TwoPlyStats, ClocksMaterialAndStalematesAtTheLanesLimits) {
  expect_two_ply_stats_of_every_level(
      {"r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 96 60", "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 97 60",
       "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 98 60", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
       "4k3/4p3/8/8/8/8/3RP3/4K3 w - - 0 1", "k7/8/1Q6/8/8/8/8/4K2R w - - 0 1", "7k/5Q2/8/8/8/8/PPP5/1K6 w - - 0 1",
       // Black's one free piece, the knight, is taken: stalemate.
       "k7/P7/1K6/8/8/2PP4/8/6Rn b - - 0 1"},
      2);
}

// Them's pieces on a line through its king, behind a piece of its own (shielded: no move
// pins them) or behind one of ours, which may move away and pin them. After Kh8 Ng8-f6
// Black's bishop is pinned and its pawn blocked: stalemate (missed when our knight counts as
// a shield for the reply rule). After Qh5 Nh6-f7 the queen is pinned and cannot take: mate
// (missed when the knight counts as a shield for the capture rule). En passant takes a
// shield away.
TEST(TwoPlyStats, PiecesShieldedOnTheLinesThroughTheirKing) {
  expect_two_ply_stats_of_every_level(
      {"R4bN1/5p1k/8/8/8/8/PP6/2K3R1 b - - 0 1", "4q1rk/ppp3p1/7N/8/8/8/8/KB5R b - - 0 1",
       "8/2p5/8/kP1n3R/8/8/8/4K3 b - - 0 1", "r2qk2r/ppp2ppp/2n1bn2/1B1pp3/3PP3/2N1BN2/PPP2PPP/R2QK2R w KQkq - 0 8",
       "k7/1p6/2n5/8/4B3/8/6K1/7Q w - - 0 1"},
      2);
}

// Direct checks the lanes rule out as mates by the king taking the checker, or by the first
// piece of Them's on a line through the king taking it. Bxf7 checks with the queen behind the
// bishop: the king cannot take (missed when the queen's line stops at the bishop), mate.
// Rxd8 takes the one piece that could block the back rank: mate (missed when that piece
// counts as a blocker). Qxf2 and Bxf2 are taken by the king; Qe3 by the f-pawn, first on the
// e1-h4 diagonal with nothing of Black's beyond it, and Qd2 by the bishop first on the rank.
TEST(TwoPlyStats, ChecksTakenByTheKingOrTheFirstPieceOnALine) {
  expect_two_ply_stats_of_every_level(
      {"rnbqkbnr/pppppppp/8/8/2B5/1Q6/PPPPPPPP/RNB1K1NR b KQkq - 0 1", "3r3k/ppp3pp/8/8/8/8/6PP/3R2K1 b - - 0 1",
       "rnb1kbnr/pppp1ppp/4p3/8/4P2q/8/PPPPNPPP/RNBQK2R b KQkq - 0 1",
       "rnb1kb1r/pppp1ppp/4p2n/6q1/4P1Q1/3P1N2/PPP2PPP/RNB1KB1R b KQkq - 0 1",
       "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/5N1P/PPPP1PP1/RNBQKB1R b KQkq - 0 1",
       "rnb1kbnr/pp1ppppp/2p5/8/3qP3/N3Q3/PPPP1PPP/R1B1KBNR b KQkq - 0 1"},
      1);
}

// Knights counted from the squares one or two of them reach (two knights at most in every
// lane): both of White's knights jump to f6 with check; and one jump set at a time where a
// side has three knights, as after a promotion (three of them reach d2, or d7: that square
// counts three moves).
TEST(TwoPlyStats, KnightsReachingOneSquareAndThreeKnights) {
  expect_two_ply_stats_of_every_level(
      {"4k3/pp3ppp/8/8/4N1N1/8/PPP2PPP/4K3 b - - 0 1", "r3k2r/pppq1ppp/2n1bn2/8/3NN3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1",
       "n1n1k3/pp3ppp/8/2n5/8/8/PPPN1PPP/4K3 w - - 0 1", "4k3/pp3ppp/8/8/8/1N6/PPP2PPP/1N2KN2 w - - 0 1",
       "1n2kn2/ppp2ppp/1n6/8/8/8/PP3PPP/4K3 w - - 0 1"},
      1);
}

// Three plies: the children of a node that miss the table share the lanes' batches of eight,
// across their boundaries. Among them children whose leaves may be drawn (clocks 96 to 98,
// counted alone), king moves (the batch starts again), mates and stalemates one ply down
// (a child without moves: no lanes at all), and a table that already holds some children.
TEST(TwoPlyStats, ThreePliesCountTheChildrenThatMissTogether) {
  expect_stats_of_every_level(
      {KIWIPETE, POSITION3, POSITION4, POSITION5, "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 96 60",
       "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 97 60", "k7/P7/1K6/8/2PP4/8/8/6Rn w - - 0 1",
       "R4bN1/5p1k/8/8/8/8/PP6/2K3R1 w - - 0 1", "6rk/ppp3p1/7N/8/8/8/8/KB5R w - - 0 1"},
      1, 3);
}

}  // namespace
}  // namespace perftkit
