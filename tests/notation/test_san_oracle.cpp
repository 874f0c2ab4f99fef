// SAN read by perftkit against the test-only mailbox oracle's legal moves: every piece
// letter, target square, disambiguation, capture mark and promotion, in positions reached
// by seeded random games from the standard positions. The expected move is the one legal
// move of the oracle that the text names (or "illegal" / "ambiguous"), so a reader that
// finds pieces directly, misses a pin or a check, or mixes up promotions fails here.
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "notation/san.hpp"
#include "notation/uci.hpp"
#include "oracle/mailbox_board.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

// A legal move of the oracle as SAN sees it: the piece letter (P for a pawn), the squares
// and the promotion letter (0 for none); castling is left out.
struct OracleMove {
  char piece;
  int from_file, from_rank, to_file, to_rank;
  char promotion;
  std::string uci;
};

std::vector<OracleMove> oracle_moves(const std::string& fen) {
  const std::optional<oracle::Board> board = oracle::board_from_fen(fen);
  EXPECT_TRUE(board) << fen;
  std::vector<OracleMove> moves;
  if (!board) return moves;
  for (const oracle::Child& child : oracle::legal_children(*board)) {
    const std::string& u = child.uci;
    const int from = oracle::square_at(u[0] - 'a', u[1] - '1'), to = oracle::square_at(u[2] - 'a', u[3] - '1');
    const char mover = board->squares[std::size_t(from)], target = board->squares[std::size_t(to)];
    const bool castling = std::toupper(mover) == 'K' && target != oracle::EMPTY &&
                          std::isupper(mover) == std::isupper(target);  // king takes own rook
    if (castling || (std::toupper(mover) == 'K' && (u[0] - u[2] > 1 || u[2] - u[0] > 1))) continue;
    moves.push_back({char(std::toupper(mover)), u[0] - 'a', u[1] - '1', u[2] - 'a', u[3] - '1',
                     u.size() == 5 ? char(std::toupper(u[4])) : char(0), u});
  }
  return moves;
}

// A SAN text and what it asks for: -1 leaves a coordinate open.
struct Pattern {
  char piece = 'P';  // P for a pawn
  int file = -1, rank = -1;
  int to_file = 0, to_rank = 0;
  char promotion = 0;
  std::string text;
};

// What the oracle says the pattern names.
std::string expected(const std::vector<OracleMove>& moves, const Pattern& p) {
  int matches = 0;
  std::string found;
  for (const OracleMove& m : moves) {
    if (m.piece != p.piece || m.to_file != p.to_file || m.to_rank != p.to_rank) continue;
    if ((p.file >= 0 && m.from_file != p.file) || (p.rank >= 0 && m.from_rank != p.rank)) continue;
    if (m.promotion != p.promotion) continue;
    ++matches;
    found = m.uci;
  }
  return matches == 0 ? "illegal" : matches > 1 ? "ambiguous" : found;
}

std::string resolved(const Position& pos, const std::string& san) {
  const SanResult r = parse_san(pos, san);
  return r.status == SanStatus::OK ? to_uci(r.move, true) : std::string(san_status_word(r.status));
}

// Piece moves with every disambiguation, with and without the capture mark.
void add_piece_patterns(std::vector<Pattern>& out, int to_file, int to_rank) {
  const std::string square{char('a' + to_file), char('1' + to_rank)};
  for (const char piece : {'N', 'B', 'R', 'Q', 'K'})
    for (int hint = -1; hint < 16; ++hint)
      for (const std::string mark : {"", "x"}) {
        Pattern p;
        p.piece = piece;
        p.to_file = to_file;
        p.to_rank = to_rank;
        std::string between;
        if (hint >= 0 && hint < 8) p.file = hint, between = std::string(1, char('a' + hint));
        if (hint >= 8) p.rank = hint - 8, between = std::string(1, char('1' + hint - 8));
        p.text = std::string(1, piece) + between + mark + square;
        out.push_back(p);
      }
}

// Pawn pushes and captures from every file, with each way of writing a promotion.
void add_pawn_patterns(std::vector<Pattern>& out, int to_file, int to_rank) {
  const std::string square{char('a' + to_file), char('1' + to_rank)};
  for (int file = 0; file < 8; ++file)
    for (const std::string promotion : {"", "=Q", "R", "=n", "=B"}) {
      Pattern p;
      p.piece = 'P';
      p.file = file;
      p.to_file = to_file;
      p.to_rank = to_rank;
      p.promotion = promotion.empty() ? 0 : char(std::toupper(promotion.back()));
      p.text = (file == to_file ? std::string() : std::string(1, char('a' + file)) + "x") + square + promotion;
      out.push_back(p);
    }
}

// Positions along seeded random games from each standard position.
std::vector<std::string> sample_positions() {
  std::vector<std::string> fens;
  std::mt19937 rng(20261203);
  for (const char* start : {test_positions::KIWIPETE, test_positions::POSITION3, test_positions::POSITION4,
                            test_positions::POSITION4_MIRRORED, test_positions::POSITION5, test_positions::POSITION6,
                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})
    for (int game = 0; game < 2; ++game) {
      std::optional<oracle::Board> board = oracle::board_from_fen(start);
      std::string fen = start;
      for (int ply = 0; ply < 40 && board; ++ply) {
        fens.push_back(fen);
        std::vector<oracle::Child> children = oracle::legal_children(*board);
        if (children.empty()) break;
        const std::string uci = children[rng() % children.size()].uci;
        const FenResult parsed = parse_fen(fen);
        const std::optional<Move> move = parsed ? parse_uci_move(parsed->position, uci) : std::nullopt;
        if (!move) break;
        fen = to_fen(make_move(parsed->position, *move));
        board = oracle::board_from_fen(fen);
      }
    }
  return fens;
}

TEST(SanOracle, EveryPatternNamesTheOracleMove) {
  const std::vector<std::string> fens = sample_positions();
  ASSERT_GE(fens.size(), 400u);
  std::size_t legal = 0, ambiguous = 0, checked = 0;
  for (const std::string& fen : fens) {
    const FenResult parsed = parse_fen(fen);
    ASSERT_TRUE(parsed) << fen;
    const std::vector<OracleMove> moves = oracle_moves(fen);
    std::vector<Pattern> patterns;
    for (int to_file = 0; to_file < 8; ++to_file)
      for (int to_rank = 0; to_rank < 8; ++to_rank) {
        add_piece_patterns(patterns, to_file, to_rank);
        add_pawn_patterns(patterns, to_file, to_rank);
      }
    for (const Pattern& p : patterns) {
      const std::string want = expected(moves, p);
      ASSERT_EQ(resolved(parsed->position, p.text), want) << p.text << " in " << fen;
      legal += want.size() >= 4 && want != "illegal" && want != "ambiguous";
      ambiguous += want == "ambiguous";
      ++checked;
    }
  }
  // The sample must exercise the interesting answers, not only "illegal".
  EXPECT_GE(legal, 5000u);
  EXPECT_GE(ambiguous, 300u);
  EXPECT_GT(checked, legal);
}

}  // namespace
}  // namespace perftkit
