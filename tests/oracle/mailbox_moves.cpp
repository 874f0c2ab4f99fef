// The oracle's moves: every pseudo-legal move is made on a copy of the board, and kept when
// the mover's king is not attacked afterwards (tests/oracle/mailbox_board.hpp).
#include <algorithm>
#include <cctype>
#include <utility>

#include "oracle/mailbox_board.hpp"
#include "oracle/mailbox_steps.hpp"

namespace oracle {

namespace {

constexpr char PROMOTIONS[] = {'Q', 'R', 'B', 'N'};

Side other(Side side) { return side == WHITE ? BLACK : WHITE; }
char kind_of(char piece) { return char(std::toupper(static_cast<unsigned char>(piece))); }
bool belongs_to(char piece, Side side) {
  return piece != EMPTY && (std::isupper(static_cast<unsigned char>(piece)) != 0) == (side == WHITE);
}
int back_rank(Side side) { return side == WHITE ? 0 : 7; }

std::string square_name(int square) { return {char('a' + file_of(square)), char('1' + rank_of(square))}; }

// A right is lost when its king moves, or when its rook moves or is captured.
void drop_castling_rights(Board& board, int from, int to) {
  for (Side side : {WHITE, BLACK}) {
    if (from == king_square(board, side))
      board.castling_rook[side][KING_WING] = board.castling_rook[side][QUEEN_WING] = NO_SQUARE;
    for (int& rook : board.castling_rook[side])
      if (rook == from || rook == to) rook = NO_SQUARE;
  }
}

class MoveCollector {
 public:
  // named: whether each child carries its UCI text (perft leaves it out, for speed).
  MoveCollector(const Board& board, bool named) : board_(board), us_(board.to_move), named_(named) {}

  std::vector<Child> collect() {
    for (int from = 0; from < 128; ++from) {
      if (!on_board(from) || !belongs_to(board_.squares[from], us_)) continue;
      switch (kind_of(board_.squares[from])) {
        case 'P': pawn_moves(from); break;
        case 'N': step_moves(from, KNIGHT_STEPS); break;
        case 'B': slide_moves(from, DIAGONAL_STEPS); break;
        case 'R': slide_moves(from, STRAIGHT_STEPS); break;
        case 'Q':
          slide_moves(from, DIAGONAL_STEPS);
          slide_moves(from, STRAIGHT_STEPS);
          break;
        case 'K':
          step_moves(from, KING_STEPS);
          castling_moves(from);
          break;
      }
    }
    return std::move(children_);
  }

 private:
  // Keeps a move when it does not leave the mover's king attacked.
  void keep_if_legal(Board next, int from, int to, char promotion = 0) {
    next.to_move = other(us_);
    if (attacked(next, king_square(next, us_), other(us_))) return;
    std::string uci;
    if (named_) {
      uci = square_name(from) + square_name(to);
      if (promotion) uci += char(std::tolower(static_cast<unsigned char>(promotion)));
    }
    children_.push_back({next, std::move(uci)});
  }

  // A plain move or capture: the piece leaves `from`, whatever stood on `to` is gone.
  void add_move(int from, int to, char promotion = 0) {
    Board next = board_;
    drop_castling_rights(next, from, to);
    next.squares[to] = promotion ? piece_of(us_, promotion) : board_.squares[from];
    next.squares[from] = EMPTY;
    next.en_passant = NO_SQUARE;
    keep_if_legal(next, from, to, promotion);
  }

  void step_moves(int from, const int (&steps)[8]) {
    for (const int step : steps) {
      const int to = from + step;
      if (on_board(to) && !belongs_to(board_.squares[to], us_)) add_move(from, to);
    }
  }

  void slide_moves(int from, const int (&steps)[4]) {
    for (const int step : steps) {
      for (int to = from + step; on_board(to); to += step) {
        if (belongs_to(board_.squares[to], us_)) break;
        add_move(from, to);
        if (board_.squares[to] != EMPTY) break;
      }
    }
  }

  // A pawn reaching the last rank becomes a queen, rook, bishop or knight: four moves.
  void pawn_move_or_promotions(int from, int to) {
    if (rank_of(to) == back_rank(other(us_))) {
      for (const char promotion : PROMOTIONS) add_move(from, to, promotion);
    } else {
      add_move(from, to);
    }
  }

  // Pawns push one square to an empty one, two from their starting rank over an empty one,
  // and capture diagonally forward, including en passant onto the square a pawn passed.
  void pawn_moves(int from) {
    const int forward = us_ == WHITE ? 16 : -16;
    const int start_rank = us_ == WHITE ? 1 : 6;
    const int one = from + forward;
    if (on_board(one) && board_.squares[one] == EMPTY) {
      pawn_move_or_promotions(from, one);
      const int two = one + forward;
      if (rank_of(from) == start_rank && board_.squares[two] == EMPTY) {
        Board next = board_;
        next.squares[two] = board_.squares[from];
        next.squares[from] = EMPTY;
        next.en_passant = one;
        keep_if_legal(next, from, two);
      }
    }
    for (const int side_step : {-1, 1}) {
      const int to = one + side_step;
      if (!on_board(to)) continue;
      if (board_.squares[to] != EMPTY && !belongs_to(board_.squares[to], us_)) {
        pawn_move_or_promotions(from, to);
      } else if (to == board_.en_passant && board_.squares[to] == EMPTY) {
        Board next = board_;
        next.squares[to] = board_.squares[from];
        next.squares[from] = EMPTY;
        next.squares[to - forward] = EMPTY;  // the captured pawn stands behind the square
        next.en_passant = NO_SQUARE;
        keep_if_legal(next, from, to);
      }
    }
  }

  // Castling (Chess960 rules, which contain the standard ones): the king goes to the g- or
  // c-file and the rook to the f- or d-file. Every square either crosses or lands on is empty
  // but for the two of them; the king is not in check and crosses or lands on no attacked square.
  void castling_moves(int king) {
    for (const Wing wing : {KING_WING, QUEEN_WING}) {
      const int rook = board_.castling_rook[us_][wing];
      if (rook == NO_SQUARE || board_.squares[rook] != piece_of(us_, 'R')) continue;
      const int rank = back_rank(us_);
      const int king_to = square_at(wing == KING_WING ? 6 : 2, rank);
      const int rook_to = square_at(wing == KING_WING ? 5 : 3, rank);
      if (!path_clear(king, king_to, king, rook) || !path_clear(rook, rook_to, king, rook)) continue;
      Board lifted = board_;
      lifted.squares[king] = lifted.squares[rook] = EMPTY;
      bool safe = true;
      for (int s = std::min(king, king_to); s <= std::max(king, king_to); ++s)
        safe = safe && !attacked(lifted, s, other(us_));
      if (!safe) continue;
      Board next = lifted;
      next.squares[king_to] = piece_of(us_, 'K');
      next.squares[rook_to] = piece_of(us_, 'R');
      next.castling_rook[us_][KING_WING] = next.castling_rook[us_][QUEEN_WING] = NO_SQUARE;
      next.en_passant = NO_SQUARE;
      keep_if_legal(next, king, rook);
    }
  }

  // Whether every square from a to b (both included) is empty or holds the king or the rook.
  bool path_clear(int a, int b, int king, int rook) const {
    for (int s = std::min(a, b); s <= std::max(a, b); ++s)
      if (board_.squares[s] != EMPTY && s != king && s != rook) return false;
    return true;
  }

  const Board& board_;
  const Side us_;
  const bool named_;
  std::vector<Child> children_;
};

}  // namespace

std::vector<Child> legal_children(const Board& board) { return MoveCollector(board, true).collect(); }

std::uint64_t perft(const Board& board, int depth) {
  if (depth == 0) return 1;
  const std::vector<Child> children = MoveCollector(board, false).collect();
  if (depth == 1) return children.size();
  std::uint64_t leaves = 0;
  for (const Child& child : children) leaves += perft(child.board, depth - 1);
  return leaves;
}

}  // namespace oracle
