// SAN read against the legal moves of a position: disambiguation, pawns, promotions,
// castling in both notations, suffixes, and the three ways a move can be bad.
#include <gtest/gtest.h>

#include <string>

#include "notation/fen.hpp"
#include "notation/san.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

Position position(const std::string& fen) {
  const FenResult parsed = parse_fen(fen);
  EXPECT_TRUE(parsed) << parsed.error;
  return parsed ? parsed->position : Position{};
}

// The move san names in fen, written as UCI (castling as king takes rook), or the status word.
std::string resolve(const std::string& fen, const std::string& san) {
  const SanResult r = parse_san(position(fen), san);
  return r.status == SanStatus::OK ? to_uci(r.move, true) : std::string(san_status_word(r.status));
}

TEST(San, PawnMovesAndCaptures) {
  const std::string start(START_FEN);
  EXPECT_EQ(resolve(start, "e4"), "e2e4");
  EXPECT_EQ(resolve(start, "e3"), "e2e3");
  EXPECT_EQ(resolve(start, "e5"), "illegal");
  const std::string open = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
  EXPECT_EQ(resolve(open, "exd5"), "e4d5");
  EXPECT_EQ(resolve(open, "cxd5"), "illegal");
}

TEST(San, EnPassant) {
  const std::string fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
  EXPECT_EQ(resolve(fen, "exd6"), "e5d6");
  EXPECT_EQ(parse_san(position(fen), "exd6").move.type(), EN_PASSANT);
}

TEST(San, Promotions) {
  const std::string fen = "1n2k3/P5P1/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(resolve(fen, "a8=Q"), "a7a8q");
  EXPECT_EQ(resolve(fen, "axb8=N"), "a7b8n");
  EXPECT_EQ(resolve(fen, "axb8=Q+"), "a7b8q");
  EXPECT_EQ(resolve(fen, "g8R"), "g7g8r");
  EXPECT_EQ(resolve(fen, "g8=b"), "g7g8b");
  EXPECT_EQ(resolve(fen, "g8"), "illegal");  // a pawn on the last rank must promote
  EXPECT_EQ(resolve(fen, "g8=K"), "invalid");
}

TEST(San, Disambiguation) {
  const std::string knights = "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1";
  EXPECT_EQ(resolve(knights, "Nb3"), "ambiguous");
  EXPECT_EQ(resolve(knights, "Nab3"), "a1b3");
  EXPECT_EQ(resolve(knights, "Ncb3"), "c1b3");
  EXPECT_EQ(resolve(knights, "Nc1b3"), "c1b3");
  const std::string rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
  EXPECT_EQ(resolve(rooks, "Ra3"), "ambiguous");
  EXPECT_EQ(resolve(rooks, "R1a3"), "a1a3");
  EXPECT_EQ(resolve(rooks, "R5a3"), "a5a3");
  EXPECT_EQ(resolve(rooks, "R5xa3"), "a5a3");
  // Three queens reach e1; only the full origin square tells them apart.
  const std::string queens = "1k6/8/8/8/4Q2Q/8/8/3K3Q w - - 0 1";
  EXPECT_EQ(resolve(queens, "Qe1"), "ambiguous");
  EXPECT_EQ(resolve(queens, "Q4e1"), "ambiguous");
  EXPECT_EQ(resolve(queens, "Qhe1"), "ambiguous");
  EXPECT_EQ(resolve(queens, "Qee1"), "e4e1");
  EXPECT_EQ(resolve(queens, "Qh4e1"), "h4e1");
  EXPECT_EQ(resolve(queens, "Q1e1"), "h1e1");
}

// A pinned piece's move is not a candidate, so the SAN without disambiguation is not ambiguous.
TEST(San, PinnedPieceDoesNotMakeAmbiguity) {
  const std::string fen = "4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1";  // the e2 knight is pinned
  EXPECT_EQ(resolve(fen, "Nd3"), "c1d3");
}

TEST(San, CastlingBothNotations) {
  const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  EXPECT_EQ(resolve(fen, "O-O"), "e1h1");
  EXPECT_EQ(resolve(fen, "0-0"), "e1h1");
  EXPECT_EQ(resolve(fen, "O-O-O"), "e1a1");
  EXPECT_EQ(resolve(fen, "0-0-0+"), "e1a1");
  const std::string black = "r3k2r/8/8/8/8/8/8/R3K2R b kq - 0 1";
  EXPECT_EQ(resolve(black, "O-O"), "e8h8");
  EXPECT_EQ(resolve(black, "O-O-O"), "e8a8");
  EXPECT_EQ(resolve("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O"), "illegal");
}

TEST(San, Chess960Castling) {
  // King on b1, rooks on a1 and f1: O-O-O puts the king on c1 and the rook on d1.
  const std::string fen = "4k3/8/8/8/8/8/8/RK3R2 w AF - 0 1";
  EXPECT_EQ(resolve(fen, "O-O-O"), "b1a1");
  EXPECT_EQ(resolve(fen, "O-O"), "b1f1");
}

TEST(San, SuffixesAndUciAreAccepted) {
  const std::string start(START_FEN);
  EXPECT_EQ(resolve(start, "Nf3+"), "g1f3");
  EXPECT_EQ(resolve(start, "Nf3!?"), "g1f3");
  EXPECT_EQ(resolve(start, "Nf3#"), "g1f3");
  EXPECT_EQ(resolve(start, "g1f3"), "g1f3");
  EXPECT_EQ(resolve(start, "g1g3"), "illegal");
}

TEST(San, InvalidText) {
  const std::string start(START_FEN);
  for (const char* text : {"", "Zz9", "N", "Nf9", "e", "exd", "O-O-O-O", "Pe4", "nf3", "e4e"})
    EXPECT_EQ(resolve(start, text), "invalid") << text;
}

}  // namespace
}  // namespace perftkit
