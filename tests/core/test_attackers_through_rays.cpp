// The core's small-table lookups against their definitions: attackers_through_rays() gives
// attackers()'s set (slider tables) on every square, for both colours and for occupancies
// with pieces lifted; pawns_moving_to() gives the pawns that the pawn rules, written out
// square by square here, let move to a square. Positions along seeded random games from the
// standard positions.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "notation/fen.hpp"
#include "perftkit/movegen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

std::vector<Position> sample_positions() {
  std::vector<Position> positions;
  std::mt19937_64 rng(20261203);
  for (const char* fen : {test_positions::KIWIPETE, test_positions::POSITION3, test_positions::POSITION4,
                          test_positions::POSITION5, test_positions::POSITION6, START_FEN.data()})
    for (int game = 0; game < 3; ++game) {
      const FenResult parsed = parse_fen(fen);
      EXPECT_TRUE(parsed) << fen;
      if (!parsed) continue;
      Position pos = parsed->position;
      for (int ply = 0; ply < 60; ++ply) {
        positions.push_back(pos);
        std::vector<Position> children;
        for_each_legal_move(pos, [&](const Position& child, Move) { children.push_back(child); });
        if (children.empty()) break;
        pos = children[rng() % children.size()];
      }
    }
  return positions;
}

// The pawns of colour us that the rules let move to `to`, en passant aside, pawn by pawn.
Bitboard pawns_moving_to_by_rule(const Position& pos, Color us, Square to) {
  const int up = us == WHITE ? 8 : -8;
  const Bitboard occ = pos.occupied(), target = square_bb(to);
  Bitboard found = 0;
  for (Bitboard pawns = pos.pawns & pos.by_color[us]; pawns;) {
    const Square from = pop_lsb(pawns);
    const int ahead = int(from) + up;
    const bool single = ahead == int(to) && !(target & occ);
    const bool twice = relative_rank(us, rank_of(from)) == RANK_2 && ahead + up == int(to) &&
                       !(square_bb(Square(ahead)) & occ) && !(target & occ);
    const bool capture = (pawn_attacks(us, from) & target & pos.by_color[~us]) != 0;
    if (single || twice || capture) found |= square_bb(from);
  }
  return found;
}

TEST(AttackersThroughRays, SameSetsAsTheSliderTables) {
  const std::vector<Position> positions = sample_positions();
  ASSERT_GE(positions.size(), 500u);
  std::mt19937_64 rng(7);
  std::size_t sliders_seen = 0;
  for (const Position& pos : positions)
    for (int s = 0; s < 64; ++s) {
      const Square sq = Square(s);
      // The board as it is, and with a random piece lifted (a move's origin).
      for (const Bitboard occ : {pos.occupied(), pos.occupied() & ~square_bb(Square(rng() % 64))}) {
        ASSERT_EQ(attackers_through_rays<WHITE>(pos, sq, occ), attackers<WHITE>(pos, sq, occ));
        ASSERT_EQ(attackers_through_rays<BLACK>(pos, sq, occ), attackers<BLACK>(pos, sq, occ));
        sliders_seen += popcount(attackers<WHITE>(pos, sq, occ) & (pos.diagonal | pos.orthogonal));
      }
    }
  EXPECT_GT(sliders_seen, 10000u);  // the sliders, not only the leapers, were compared
}

TEST(PawnsMovingTo, ThePawnRulesSquareBySquare) {
  std::size_t found = 0;
  for (const Position& pos : sample_positions())
    for (int s = 0; s < 64; ++s) {
      const Square to = Square(s);
      ASSERT_EQ(pawns_moving_to<WHITE>(pos, to), pawns_moving_to_by_rule(pos, WHITE, to));
      ASSERT_EQ(pawns_moving_to<BLACK>(pos, to), pawns_moving_to_by_rule(pos, BLACK, to));
      found += popcount(pawns_moving_to<WHITE>(pos, to)) + popcount(pawns_moving_to<BLACK>(pos, to));
    }
  EXPECT_GT(found, 5000u);
}

}  // namespace
}  // namespace perftkit
