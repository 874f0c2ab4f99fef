// The core's retrograde rule for checks (perftkit/check_origin.hpp), called directly with the
// en-passant square a position names: each verdict on a hand-made position.
#include <gtest/gtest.h>

#include "notation/fen.hpp"
#include "perftkit/check_origin.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using test_positions::position_from_fen;

TEST(CheckOrigin, NoCheck) { EXPECT_EQ(check_origin(position_from_fen(START_FEN), SQ_NONE), CheckOrigin::NO_CHECK); }

TEST(CheckOrigin, ARookThatCameFromAnEmptySquare) {
  EXPECT_EQ(check_origin(position_from_fen("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1"), SQ_NONE), CheckOrigin::EXPLAINED);
}

TEST(CheckOrigin, ADiscoveredDoubleCheck) {
  // Knight e4-f6 uncovers the rook on e1.
  EXPECT_EQ(check_origin(position_from_fen("4k3/8/5N2/8/8/8/8/K3R3 b - - 0 1"), SQ_NONE), CheckOrigin::EXPLAINED);
}

TEST(CheckOrigin, APawnOnItsStartingSquareCannotHaveJustMoved) {
  EXPECT_EQ(check_origin(position_from_fen("4k3/3p4/4K3/8/8/8/8/8 w - - 0 1"), SQ_NONE), CheckOrigin::UNEXPLAINED);
}

TEST(CheckOrigin, TheEnPassantSquareNamesTheLastMove) {
  // A knight move would explain the knight's check, but the en-passant square says the last
  // move was e7-e5, which gives no check.
  const Position pos = position_from_fen("4k3/8/8/4pP2/8/8/3n4/5K2 w - - 0 1");
  EXPECT_EQ(check_origin(pos, SQ_NONE), CheckOrigin::EXPLAINED);
  EXPECT_EQ(check_origin(pos, SQ_E6), CheckOrigin::UNEXPLAINED);
  // The double push d2-d4 gives check itself.
  EXPECT_EQ(check_origin(position_from_fen("8/8/8/4k3/3Pp3/8/8/4K3 b - - 0 1"), SQ_D3), CheckOrigin::EXPLAINED);
}

TEST(CheckOrigin, ThreeCheckers) {
  // Pawn d7, knight f6 and rook e1 all attack e8.
  EXPECT_EQ(check_origin(position_from_fen("4k3/3P4/5N2/8/8/8/8/K3R3 b - - 0 1"), SQ_NONE),
            CheckOrigin::TOO_MANY_CHECKERS);
}

}  // namespace
}  // namespace perftkit
