// Legal moves written out as a list of 16-bit moves. A GPU thread generates a position's
// moves once into this list and then plays them in one uniform make-and-count loop: the
// code that handles a child is compiled once, not copied into every batch of the generator
// (a piece type or pawn batch, twice over for the two mask variants), which keeps kernels
// small enough for an SM's instruction cache.
#pragma once

#include "perftkit/movegen.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

// Lists the legal moves it is handed, a window of MAX_LEGAL_MOVES at a time: moves number
// first, first + 1, ... of the generator's order go to moves[0, 1, ...]; `total` counts them all.
// (No game reaches more than 218 moves, but an invented position may: a FEN full of queens.)
struct MoveListSink {
  Move* moves;
  int first = 0;
  int total = 0;

  PERFTKIT_HD_INLINE void add(Move m) {
    const unsigned slot = unsigned(total++ - first);
    if (slot < unsigned(MAX_LEGAL_MOVES)) moves[slot] = m;
  }
  // Moves in moves[] after a generator run: this window's share of them.
  PERFTKIT_HD_INLINE int listed() const { return total - first < MAX_LEGAL_MOVES ? total - first : MAX_LEGAL_MOVES; }
  // Moves past this window: then the next window is set up (the generator must run again).
  PERFTKIT_HD_INLINE bool next_window() {
    if (total - first <= MAX_LEGAL_MOVES) return false;
    first += MAX_LEGAL_MOVES;
    total = 0;
    return true;
  }
  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square from, Bitboard targets) {
    while (targets) add(Move(from, pop_lsb(targets)));
  }
  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    while (targets) {
      const Square to = pop_lsb(targets);
      const Square from = Square(to - Offset);
      if constexpr (Kind == PawnBatch::PROMOTION) {
        for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT}) add(Move::make<PROMOTION>(from, to, promo));
      } else {
        add(Move(from, to));
      }
    }
  }
  PERFTKIT_HD_INLINE void en_passant(Square from, Square to) { add(Move::make<EN_PASSANT>(from, to)); }
  PERFTKIT_HD_INLINE void castling(Square king, Square rook) { add(Move::make<CASTLING>(king, rook)); }
};

// Calls play(move) for every legal move of Us in pos, in the generator's order. The moves
// are listed first, so play is compiled once; a position with more than MAX_LEGAL_MOVES
// moves is generated again for each further window.
template <Color Us, typename Play>
PERFTKIT_HD_INLINE void for_each_listed_move(const Position& pos, Play&& play) {
  Move moves[MAX_LEGAL_MOVES];
  MoveListSink sink{moves};
  do {
    generate_legal<Us>(pos, sink);
    const int listed = sink.listed();
    for (int i = 0; i < listed; ++i) play(moves[i]);
  } while (sink.next_window());
}

// Calls visit(child) for every position one ply below pos when expand is true, else
// visit(pos) once. Either way visit is compiled at a single call site, so a leaf kernel
// counts one ply or two through the same code (and the side to move is a run-time value
// there: two copies of visit's generator, one per colour, not four).
template <typename Visit>
PERFTKIT_HD_INLINE void for_each_child_or_self(const Position& pos, bool expand, Visit&& visit) {
  Move moves[MAX_LEGAL_MOVES];
  MoveListSink sink{moves};
  do {
    int listed = 1;
    if (expand) {
      if (pos.side_to_move == WHITE) generate_legal<WHITE>(pos, sink);
      else generate_legal<BLACK>(pos, sink);
      listed = sink.listed();
    }
    for (int i = 0; i < listed; ++i) visit(expand ? make_move(pos, moves[i]) : pos);
  } while (expand && sink.next_window());
}

PERFTKIT_ISA_END
}  // namespace perftkit
