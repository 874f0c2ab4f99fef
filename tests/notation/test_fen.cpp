// FEN and EPD: every rejection reason, every warning, round trips, EPD clocks, tolerance
// of real-world whitespace, and the shared perft suites.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "perftkit/movegen.hpp"
#include "support/test_paths.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using namespace std::string_literals;

const std::string KIWIPETE = test_positions::KIWIPETE;

// The six positions of the Chess Programming Wiki's perft page (position 4 in both colours).
const std::vector<std::string> CPW_POSITIONS = {
    std::string(START_FEN),
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
};

// Shredder-FEN lines from fischer.epd (Chess960, castling rights as rook files).
const std::vector<std::string> FISCHER_POSITIONS = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9",
    "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
};

Bitboard squares(std::initializer_list<Square> list) {
  Bitboard b = 0;
  for (const Square s : list) b |= square_bb(s);
  return b;
}

// Asserts that `fen` is rejected with a message containing `problem`.
void expect_rejected(std::string_view fen, std::string_view problem) {
  SCOPED_TRACE(std::string(fen));
  const FenResult result = parse_fen(fen);
  EXPECT_FALSE(result);
  EXPECT_NE(result.error.find(problem), std::string::npos) << "message: " << result.error;
}

// Parses a FEN that must be accepted and returns it.
ParsedPosition accepted(std::string_view fen) {
  const FenResult result = parse_fen(fen);
  EXPECT_TRUE(result) << fen << ": " << result.error;
  return result ? *result : ParsedPosition{};
}

std::uint32_t warnings_of(std::string_view fen) { return accepted(fen).warnings; }

// ---------------------------------------------------------------------------------------------
// Errors: one test per reason, each checking the message names the field and the problem.

TEST(FenErrors, FieldCount) {
  expect_rejected("", "fen: expected 4 to 6 fields, got 0");
  expect_rejected("8/8/8/8/8/8/8/8 w", "fen: expected 4 to 6 fields, got 2");
  expect_rejected(std::string(START_FEN) + " extra", "fen: expected 4 to 6 fields, got more than 6");
}

TEST(FenErrors, RankCount) {
  expect_rejected("4k3/8/8/8/8/8/4K3 w - - 0 1", "board: expected 8 ranks separated by '/', got 7");
  expect_rejected("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "board: expected 8 ranks separated by '/', got more than 8");
  expect_rejected("4k3/8/8/8/8/8/8/4K3/ w - - 0 1", "got more than 8");
}

TEST(FenErrors, RankSquareCount) {
  expect_rejected("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board: rank 7 has 9 squares");
  expect_rejected("4k3/8/8/8/8/7/8/4K3 w - - 0 1", "board: rank 3 has 7 squares");
  expect_rejected("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "board: rank 1 has 9 squares");
  expect_rejected("4k3/8//8/8/8/8/4K3 w - - 0 1", "board: rank 6 has 0 squares");
}

TEST(FenErrors, DigitZeroOrNine) {
  expect_rejected("4k3/8/8/08/8/8/8/4K3 w - - 0 1", "board: digit '0' in rank 5 is not a run of 1 to 8 empty squares");
  expect_rejected("4k3/8/8/9/8/8/8/4K3 w - - 0 1", "board: digit '9' in rank 5");
}

TEST(FenErrors, AdjacentDigits) {
  expect_rejected("4k3/8/8/8/44/8/8/4K3 w - - 0 1", "board: two digits in a row in rank 4");
  expect_rejected("4k3/8/8/8/8/8/8/4K12 w - - 0 1", "board: two digits in a row in rank 1");
}

TEST(FenErrors, UnknownPieceLetter) {
  expect_rejected("4k3/8/8/8/8/8/8/4K2x w - - 0 1", "board: unknown piece letter 'x' in rank 1");
  expect_rejected("4kA2/8/8/8/8/8/8/4K3 w - - 0 1", "board: unknown piece letter 'A' in rank 8");
}

TEST(FenErrors, UnexpectedBoardCharacter) {
  expect_rejected("4k3/8/8/8/8/8/8/4K2# w - - 0 1", "board: unexpected character '#' in rank 1");
  expect_rejected("4k3/8/8/8/8/8/8/4K2\x01 w - - 0 1", "board: unexpected character '\\x01' in rank 1");
}

TEST(FenErrors, SideToMove) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move: expected 'w' or 'b', got 'x'");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move: expected 'w' or 'b', got 'W'");
}

TEST(FenErrors, KingCount) {
  expect_rejected("8/8/8/8/8/8/8/4K3 w - - 0 1", "board: black has 0 kings, expected exactly one");
  expect_rejected("4k3/8/8/8/8/8/8/8 w - - 0 1", "board: white has 0 kings, expected exactly one");
  expect_rejected("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "board: white has 2 kings, expected exactly one");
}

TEST(FenErrors, PawnOnFirstOrLastRank) {
  expect_rejected("P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
                  "board: white pawn on a8 (pawns cannot stand on the first or last rank)");
  expect_rejected("4k3/8/8/8/8/8/8/4K2p w - - 0 1", "board: black pawn on h1");
}

TEST(FenErrors, CastlingUnexpectedCharacter) {
  expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1",
                  "castling: unexpected character 'X' (expected '-', KQkq or file letters A-H/a-h)");
  expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w K- - 0 1", "castling: unexpected character '-'");
}

TEST(FenErrors, CastlingDuplicateLetter) {
  expect_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1", "castling: duplicate 'K'");
}

TEST(FenErrors, CastlingWithoutRook) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling: 'K' but no white rook on the king side of the king");
  expect_rejected("4k2r/8/8/8/8/8/8/4K3 w q - 0 1", "castling: 'q' but no black rook on the queen side of the king");
  expect_rejected("4k3/8/8/8/8/8/8/R3K2R w C - 0 1", "castling: 'C' but no white rook on c1");
  expect_rejected("4k3/8/8/8/8/8/8/R3KQ1R w F - 0 1", "castling: 'F' but no white rook on f1");
}

TEST(FenErrors, CastlingKingOffBackRank) {
  expect_rejected("4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling: 'K' but the white king is not on its back rank");
  expect_rejected("r6r/4k3/8/8/8/8/8/4K3 w a - 0 1", "castling: 'a' but the black king is not on its back rank");
}

TEST(FenErrors, CastlingTwoRightsOnOneSide) {
  expect_rejected("4k3/8/8/8/8/8/8/R3K1RR w KG - 0 1", "castling: two white king-side rights ('K' and 'G')");
  expect_rejected("r3k2r/8/8/8/8/8/8/4K3 w qa - 0 1", "castling: two black queen-side rights ('q' and 'a')");
}

TEST(FenErrors, EnPassantMalformed) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant: 'e9' is not a square or '-'");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - E6 0 1", "en passant: 'E6' is not a square or '-'");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - e 0 1", "en passant: 'e' is not a square or '-'");
}

TEST(FenErrors, EnPassantWrongRank) {
  expect_rejected("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
                  "en passant: e3 is not on rank 6, where it must be with White to move");
  expect_rejected("4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1",
                  "en passant: e6 is not on rank 3, where it must be with Black to move");
}

TEST(FenErrors, EnPassantWithoutPushedPawn) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
                  "en passant: e3 has no white pawn in front of it on e4");
  expect_rejected("4k3/8/8/3P4/8/8/8/4K3 w - d6 0 1", "en passant: d6 has no black pawn in front of it on d5");
}

TEST(FenErrors, EnPassantSquareOccupied) {
  expect_rejected("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", "en passant: e3 is occupied");
}

TEST(FenErrors, EnPassantOriginOccupied) {
  expect_rejected("4k3/8/8/8/4P3/8/4N3/K7 b - e3 0 1",
                  "en passant: e2, the origin of the pawn that moved two squares, is occupied");
}

TEST(FenErrors, HalfmoveClockNotAnInteger) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - x 1", "clock: halfmove clock 'x' is not a non-negative integer");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "clock: halfmove clock '-1' is not a non-negative integer");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - +3 1", "clock: halfmove clock '+3' is not a non-negative integer");
}

TEST(FenErrors, HalfmoveClockTooLarge) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - 65536 1", "clock: halfmove clock '65536' is larger than 65535");
  EXPECT_EQ(accepted("4k3/8/8/8/8/8/8/4K3 w - - 65535 1").position.halfmove_clock, 65535);
}

TEST(FenErrors, FullmoveNumberNotAnInteger) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "clock: fullmove number '1.5' is not a non-negative integer");
}

TEST(FenErrors, FullmoveNumberTooLarge) {
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967296",
                  "clock: fullmove number '4294967296' is larger than 4294967295");
  expect_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999999", "is larger than 4294967295");
  EXPECT_EQ(accepted("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295").position.fullmove_number, 4294967295u);
}

// Decision: fullmove 0, which several writers emit, is accepted and read as 1.
TEST(FenErrors, FullmoveZeroIsReadAsOne) {
  EXPECT_EQ(accepted("4k3/8/8/8/8/8/8/4K3 w - - 0 0").position.fullmove_number, 1u);
}

TEST(FenErrors, SideNotToMoveInCheck) {
  expect_rejected("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "position: the side not to move (White) is in check");
  expect_rejected("R3k3/8/8/8/8/8/8/4K3 w - - 0 1", "position: the side not to move (Black) is in check");
}

TEST(FenErrors, AdjacentKings) {
  expect_rejected("8/8/8/8/8/3k4/3K4/8 w - - 0 1", "position: the side not to move (Black) is in check");
}

// ---------------------------------------------------------------------------------------------
// Warnings: the position is still accepted.

TEST(FenWarnings, WarningNames) {
  EXPECT_TRUE(warning_names(WARN_NONE).empty());
  EXPECT_EQ(warning_names(WARN_TOO_MANY_PIECES | WARN_TOO_MANY_PAWNS | WARN_TOO_MANY_CHECKERS | WARN_IMPOSSIBLE_CHECK),
            (std::vector<std::string>{"too-many-pieces", "too-many-pawns", "too-many-checkers", "impossible-check"}));
}

TEST(FenWarnings, StandardPositionsHaveNone) {
  for (const std::string& fen : CPW_POSITIONS) EXPECT_EQ(warnings_of(fen), WARN_NONE) << fen;
}

TEST(FenWarnings, TooManyPieces) {
  EXPECT_EQ(warnings_of("4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1"), WARN_TOO_MANY_PIECES);
}

TEST(FenWarnings, TooManyPawns) {
  EXPECT_EQ(warnings_of("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1"), WARN_TOO_MANY_PAWNS);
  EXPECT_EQ(warnings_of("4k3/pppppppp/8/8/p7/8/8/4K3 b - - 0 1"), WARN_TOO_MANY_PAWNS);
}

TEST(FenWarnings, TooManyCheckers) {
  // Pawn d7, knight f6 and rook e1 all attack e8; no move gives triple check.
  EXPECT_EQ(warnings_of("4k3/3P4/5N2/8/8/8/8/K3R3 b - - 0 1"), WARN_TOO_MANY_CHECKERS | WARN_IMPOSSIBLE_CHECK);
}

TEST(FenWarnings, DoubleCheckByTwoLeapers) {
  EXPECT_EQ(warnings_of("4k3/8/3N1N2/8/8/8/8/K7 b - - 0 1"), WARN_IMPOSSIBLE_CHECK);  // two knights
  EXPECT_EQ(warnings_of("4k3/3P1P2/8/8/8/8/8/K7 b - - 0 1"), WARN_IMPOSSIBLE_CHECK);  // two pawns
  EXPECT_EQ(warnings_of("4k3/3P4/5N2/8/8/8/8/K7 b - - 0 1"), WARN_IMPOSSIBLE_CHECK);  // pawn and knight
}

TEST(FenWarnings, DoubleCheckWithUndiscoverableSlider) {
  // Impossible checker alignments from tricky.perft: neither checker can have uncovered the other.
  EXPECT_EQ(warnings_of("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1"), WARN_IMPOSSIBLE_CHECK);
  EXPECT_EQ(warnings_of("2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1"), WARN_IMPOSSIBLE_CHECK);
  EXPECT_EQ(warnings_of("5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1"), WARN_IMPOSSIBLE_CHECK);
  // Two bishops on one diagonal, the king between them.
  EXPECT_EQ(warnings_of("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1"), WARN_IMPOSSIBLE_CHECK);
}

TEST(FenWarnings, CheckFromUnmovedPawn) {
  EXPECT_EQ(warnings_of("4k3/3p4/4K3/8/8/8/8/8 w - - 0 1"), WARN_IMPOSSIBLE_CHECK);
}

TEST(FenWarnings, EnPassantWithUnrelatedCheck) {
  // From tricky.perft: the double push cannot have given (or uncovered) these checks.
  EXPECT_EQ(warnings_of("rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1"), WARN_IMPOSSIBLE_CHECK);
  EXPECT_EQ(warnings_of("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"), WARN_IMPOSSIBLE_CHECK);
  EXPECT_EQ(warnings_of("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1"), WARN_IMPOSSIBLE_CHECK);
  // Without the en-passant square a knight move explains the knight's check.
  EXPECT_EQ(warnings_of("4k3/8/8/8/4Pp2/8/3n4/5K2 w - - 0 1"), WARN_NONE);
  EXPECT_EQ(warnings_of("4k3/8/8/4pP2/8/8/3n4/5K2 w - e6 0 1"), WARN_IMPOSSIBLE_CHECK);
}

TEST(FenWarnings, ExplainableChecksAreNotFlagged) {
  // Knight from e4 to f6 uncovers the rook on e1: a double check.
  EXPECT_EQ(warnings_of("4k3/8/5N2/8/8/8/8/K3R3 b - - 0 1"), WARN_NONE);
  // The double push d2-d4 gives check itself.
  EXPECT_EQ(warnings_of("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1"), WARN_NONE);
  // The double push e2-e4 uncovers the bishop on d1.
  EXPECT_EQ(warnings_of("8/8/8/7k/3pP3/8/8/K2B4 b - e3 0 1"), WARN_NONE);
  // En passant d5xe6 empties d5 and e5: the rook on d8 and the bishop on h8 both give check.
  EXPECT_EQ(warnings_of("3R3B/8/4P3/8/3k4/8/8/K7 b - - 0 1"), WARN_NONE);
  // Only d7-d8=N explains the knight's check together with the bishop's on c8.
  EXPECT_EQ(warnings_of("2BN4/8/4k3/8/8/8/8/K7 b - - 0 1"), WARN_NONE);
  // Only castling (Chess960, king from b1, rook from a1) puts the rook on d1, hemmed in.
  EXPECT_EQ(warnings_of("8/8/8/8/8/8/3P4/2KRk3 b - - 0 1"), WARN_NONE);
}

// ---------------------------------------------------------------------------------------------
// Field contents and round trips.

TEST(FenRoundTrip, StartPositionFields) {
  const ParsedPosition parsed = accepted(START_FEN);
  const Position& p = parsed.position;
  EXPECT_EQ(p.by_color[WHITE], 0xFFFFull);
  EXPECT_EQ(p.by_color[BLACK], 0xFFFF000000000000ull);
  EXPECT_EQ(p.pawns, 0x00FF00000000FF00ull);
  EXPECT_EQ(p.knights, squares({SQ_B1, SQ_G1, SQ_B8, SQ_G8}));
  EXPECT_EQ(p.diagonal, squares({SQ_C1, SQ_D1, SQ_F1, SQ_C8, SQ_D8, SQ_F8}));
  EXPECT_EQ(p.orthogonal, squares({SQ_A1, SQ_D1, SQ_H1, SQ_A8, SQ_D8, SQ_H8}));
  EXPECT_EQ(p.kings, squares({SQ_E1, SQ_E8}));
  EXPECT_EQ(p.castling_rooks, squares({SQ_A1, SQ_H1, SQ_A8, SQ_H8}));
  EXPECT_EQ(p.ep_square, SQ_NONE);
  EXPECT_EQ(p.side_to_move, WHITE);
  EXPECT_EQ(p.halfmove_clock, 0);
  EXPECT_EQ(p.fullmove_number, 1u);
  EXPECT_FALSE(parsed.chess960);
  EXPECT_EQ(parsed.warnings, WARN_NONE);
  EXPECT_EQ(accepted("startpos").position, p);
}

TEST(FenRoundTrip, MissingClocksDefault) {
  const Position p = accepted("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").position;
  EXPECT_EQ(p.halfmove_clock, 0);
  EXPECT_EQ(p.fullmove_number, 1u);
  EXPECT_EQ(accepted("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7").position.halfmove_clock, 7);
  EXPECT_EQ(to_fen(p), KIWIPETE);
}

TEST(FenRoundTrip, StandardPositionsExactly) {
  for (const std::string& fen : CPW_POSITIONS) {
    const ParsedPosition parsed = accepted(fen);
    EXPECT_EQ(to_fen(parsed.position), fen);
    EXPECT_FALSE(parsed.chess960) << fen;
  }
  const std::string with_ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
  EXPECT_EQ(accepted(with_ep).position.ep_square, SQ_F6);
  EXPECT_EQ(to_fen(accepted(with_ep).position), with_ep);
}

// A FenWriter writes each position's own FEN, whatever it wrote before: moves that change a
// rank or two (the FEN article's example game), then unrelated positions back and forth.
TEST(FenWriterSequence, GameMovesThenUnrelatedPositions) {
  const std::vector<std::pair<std::string, std::string>> game = {
      {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
      {"c7c5", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
      {"g1f3", "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
  };
  FenWriter writer;
  char text[FEN_MAX_BYTES];
  const auto written = [&](const Position& pos) { return std::string(text, writer.write(pos, text)); };
  Position pos = accepted(START_FEN).position;
  EXPECT_EQ(written(pos), START_FEN);
  for (const auto& [uci, fen] : game) {
    const std::optional<Move> move = parse_uci_move(pos, uci);
    ASSERT_TRUE(move) << uci;
    pos = make_move(pos, *move);
    EXPECT_EQ(written(pos), fen) << "after " << uci;
  }
  for (int pass = 0; pass < 2; ++pass)
    for (const std::string& fen : CPW_POSITIONS) EXPECT_EQ(written(accepted(fen).position), fen);
  EXPECT_EQ(written(accepted(START_FEN).position), START_FEN);
}

// One FenWriter along seeded random games writes what a fresh one writes at every position:
// it re-reads only the ranks where a piece set changed, so any set it failed to compare
// (a black knight's move leaves the white set alone) would keep a stale rank.
TEST(FenWriterSequence, RandomGamesMatchAFreshWriter) {
  std::mt19937 random(20261203);
  FenWriter writer;
  char text[FEN_MAX_BYTES], fresh[FEN_MAX_BYTES];
  int positions = 0;
  for (const std::string& start : CPW_POSITIONS)
    for (int game = 0; game < 4; ++game) {
      Position pos = accepted(start).position;
      for (int ply = 0; ply < 150; ++ply, ++positions) {
        ASSERT_EQ(std::string(text, writer.write(pos, text)), std::string(fresh, write_fen(pos, fresh)));
        std::vector<Position> children;
        for_each_legal_move(pos, [&](const Position& child, Move) { children.push_back(child); });
        if (children.empty()) break;
        pos = children[random() % children.size()];
      }
    }
  EXPECT_GT(positions, 1000);
}

// The longest FEN of a valid position: every square but the two behind an en-passant
// capture full, four castling rights and both clocks at their limits. It must fit the bound
// that every FEN buffer is sized by (it once did not: 98 bytes against 96).
TEST(FenRoundTrip, LongestFenFitsTheWritersBound) {
  const std::string longest =
      "rnbqkbnr/pppp1ppp/pppp1ppp/pppPpppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq e6 65535 4294967295";
  const Position pos = accepted(longest).position;
  ASSERT_EQ(pos.ep_square, SQ_E6);
  EXPECT_LE(longest.size(), FEN_MAX_BYTES);
  std::array<char, FEN_MAX_BYTES + 8> buffer;
  buffer.fill('#');
  char* const end = FenWriter().write(pos, buffer.data());
  EXPECT_EQ(std::string(buffer.data(), end), longest);
  EXPECT_TRUE(std::all_of(buffer.begin() + FEN_MAX_BYTES, buffer.end(), [](char c) { return c == '#'; }));
}

// Decision: an en-passant square no pawn of the side to move attacks is dropped, as
// make_move does, so that equal positions compare equal.
TEST(FenRoundTrip, UncapturableEnPassantSquareIsDropped) {
  const Position p = accepted("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").position;
  EXPECT_EQ(p.ep_square, SQ_NONE);
  EXPECT_EQ(to_fen(p), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST(FenRoundTrip, ShredderFenLines) {
  for (const std::string& fen : FISCHER_POSITIONS) {
    const ParsedPosition parsed = accepted(fen);
    EXPECT_TRUE(parsed.chess960) << fen;
    const FenResult again = parse_fen(to_fen(parsed.position));
    ASSERT_TRUE(again) << again.error;
    EXPECT_EQ(again->position, parsed.position) << fen << " -> " << to_fen(parsed.position);
  }
  const Position first = accepted(FISCHER_POSITIONS[0]).position;
  EXPECT_EQ(first.castling_rooks, squares({SQ_F1, SQ_H1, SQ_F8, SQ_H8}));
  EXPECT_EQ(to_fen(first), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
}

TEST(FenRoundTrip, XFenLetters) {
  // KQkq name the outermost rooks, even with the king off the e-file.
  const ParsedPosition xfen = accepted("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
  EXPECT_EQ(xfen.position.castling_rooks, squares({SQ_A1, SQ_E1, SQ_A8, SQ_E8}));
  EXPECT_TRUE(xfen.chess960);
  EXPECT_EQ(to_fen(xfen.position), "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
  // An inner rook keeps its file letter.
  for (const std::string fen : {"4k3/8/8/8/8/8/8/R3K1RR w G - 0 1", "1r2k3/8/8/8/8/8/8/RR2K3 w Bq - 0 1"}) {
    const ParsedPosition inner = accepted(fen);
    EXPECT_TRUE(inner.chess960);
    EXPECT_EQ(to_fen(inner.position), fen);
  }
  EXPECT_EQ(accepted("4k3/8/8/8/8/8/8/R3K1RR w G - 0 1").position.castling_rooks, square_bb(SQ_G1));
}

TEST(FenRoundTrip, Chess960Flag) {
  EXPECT_FALSE(accepted("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").chess960);
  EXPECT_FALSE(accepted("4k3/8/8/8/8/8/8/4K3 w - - 0 1").chess960);
  EXPECT_TRUE(accepted("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").chess960);      // file letters
  EXPECT_TRUE(accepted("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1").chess960);  // black king on h8
  EXPECT_TRUE(accepted("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1").chess960);           // rook on g1
  EXPECT_EQ(accepted("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").position,
            accepted("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").position);
}

// ---------------------------------------------------------------------------------------------
// EPD.

TEST(FenEpd, OperationsSetClocks) {
  const FenResult r = parse_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; fmvn 12; id \"a;b\";");
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r->position.halfmove_clock, 3);
  EXPECT_EQ(r->position.fullmove_number, 12u);
}

TEST(FenEpd, ClocksDefaultAndOtherOpcodesAreIgnored) {
  const FenResult bare = parse_epd("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
  ASSERT_TRUE(bare) << bare.error;
  EXPECT_EQ(to_fen(bare->position), KIWIPETE);
  const FenResult ops =
      parse_epd("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -; bm e2a6; c0 \"x\"");
  ASSERT_TRUE(ops) << ops.error;
  EXPECT_EQ(ops->position, bare->position);
}

TEST(FenEpd, FenStyleClocksBeforeOperations) {
  const FenResult r = parse_epd("4k3/8/8/8/8/8/8/4K3 w - -  5 40; D4 23441\0"s);
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r->position.halfmove_clock, 5);
  EXPECT_EQ(r->position.fullmove_number, 40u);
}

TEST(FenEpd, Errors) {
  const auto error_of = [](std::string_view epd) { return parse_epd(epd).error; };
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w -"), "epd: expected 4 position fields, got 3");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - hmvc x;"), "clock: halfmove clock 'x' is not a non-negative integer");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - fmvn 1 2;"), "epd: fmvn takes exactly one operand");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - id \"open;"), "epd: unterminated string in the operations");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - id 1; 2 3;"), "epd: operation '2' does not start with an opcode");
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K4 w - - id 1;"), "board: rank 1 has 9 squares, expected 8");
}

// ---------------------------------------------------------------------------------------------
// Tolerance of the whitespace found in real files.

TEST(FenTolerance, BlanksNulAndCarriageReturn) {
  const Position kiwipete = accepted(KIWIPETE).position;
  for (const std::string& fen : {"  " + KIWIPETE + "  ", "\t" + KIWIPETE + "\r\n", KIWIPETE + '\0',
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R   w\tKQkq  -  0 1\r"s}) {
    const FenResult r = parse_fen(fen);
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r->position, kiwipete);
  }
  EXPECT_TRUE(parse_fen(" startpos\r"));
  const FenResult epd = parse_epd("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -  0 1; D1 48\0\r"s);
  ASSERT_TRUE(epd) << epd.error;
  EXPECT_EQ(epd->position, kiwipete);
}

TEST(FenTolerance, HugeInputsAreRejectedQuickly) {
  EXPECT_FALSE(parse_fen(std::string(1 << 20, '/') + " w - - 0 1"));
  EXPECT_FALSE(parse_fen(std::string(1 << 20, '1') + " w - - 0 1"));
  EXPECT_FALSE(parse_fen(std::string(1 << 20, ' ')));
  EXPECT_FALSE(parse_fen(std::string(1 << 20, 'a')));
  EXPECT_FALSE(parse_epd(std::string(START_FEN) + std::string(1 << 20, ';') + "\""));
  const FenResult long_clock = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - " + std::string(100000, '9') + " 1");
  const std::string expected = "halfmove clock '" + std::string(24, '9') + "...' is larger than 65535";
  EXPECT_NE(long_clock.error.find(expected), std::string::npos) << long_clock.error;
}

// ---------------------------------------------------------------------------------------------
// The shared perft suites: every position parses; only the known oddities raise warnings.

// The FEN part of each position line of a suite file (both EPD styles and `epd` blocks).
std::vector<std::string> suite_fens(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> fens;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("epd ", 0) == 0) fens.push_back(line.substr(4));
    else if (line.find('/') != std::string::npos && line[0] != '#') fens.push_back(line.substr(0, line.find(';')));
  }
  return fens;
}

TEST(FenSuites, AllSharedPerftPositionsParse) {
  const std::filesystem::path folder = std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft";
  if (!std::filesystem::is_directory(folder)) GTEST_SKIP() << "no shared perft data at " << folder;
  // Positions with a warning: Sedlak's two bishops on one diagonal, tricky.perft's six.
  const std::map<std::string, std::size_t> expected_warned = {{"fischer.epd", 0},  {"perft-ferdy-double-checks.epd", 0},
                                                              {"perft.epd", 1},    {"random.perft", 0},
                                                              {"standard.epd", 1}, {"tricky.perft", 6}};
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (!expected_warned.contains(name)) continue;
    ++files;
    std::size_t warned = 0;
    const std::vector<std::string> fens = suite_fens(entry.path());
    EXPECT_FALSE(fens.empty()) << name;
    for (const std::string& fen : fens) {
      const FenResult r = parse_fen(fen);
      ASSERT_TRUE(r) << name << ": " << fen << ": " << r.error;
      warned += r->warnings != WARN_NONE;
      const FenResult again = parse_fen(to_fen(r->position));
      ASSERT_TRUE(again) << again.error;
      EXPECT_EQ(again->position, r->position) << name << ": " << fen;
    }
    EXPECT_EQ(warned, expected_warned.at(name)) << name;
  }
  EXPECT_EQ(files, expected_warned.size());
}

// Shredder-FEN castling letters mark a position as Chess960.
TEST(FenSuites, FischerLinesWithRightsAreChess960) {
  const std::filesystem::path file =
      std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft" / "fischer.epd";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no shared perft data at " << file;
  std::size_t with_rights = 0;
  for (const std::string& fen : suite_fens(file)) {
    if (fen.find(" w - ") != std::string::npos || fen.find(" b - ") != std::string::npos) continue;
    EXPECT_TRUE(accepted(fen).chess960) << fen;
    ++with_rights;
  }
  EXPECT_GT(with_rights, 800u);
}

}  // namespace
}  // namespace perftkit
