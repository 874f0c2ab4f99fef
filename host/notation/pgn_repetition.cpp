#include "notation/pgn_repetition.hpp"

#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

// Notes whether the generator hands out a legal en passant capture; ignores every other move.
struct EnPassantSink {
  bool found = false;
  template <PieceType Pt>
  void piece_moves(Square, Bitboard) {}
  template <PawnBatch Kind, int Offset>
  void pawn_moves(Bitboard) {}
  void en_passant(Square, Square) { found = true; }
  void castling(Square, Square) {}
};

bool has_legal_en_passant(const Position& pos) {
  EnPassantSink sink;
  if (pos.side_to_move == WHITE) generate_legal<WHITE>(pos, sink);
  else generate_legal<BLACK>(pos, sink);
  return sink.found;
}

// pos becomes its own repetition key, in place.
void clear_what_repetition_ignores(Position& pos) {
  pos.halfmove_clock = 0;
  pos.fullmove_number = 0;
  if (pos.ep_square != SQ_NONE && !has_legal_en_passant(pos)) pos.ep_square = SQ_NONE;
}

}  // namespace

Position repetition_key(const Position& pos) {
  Position key = pos;
  clear_what_repetition_ignores(key);
  return key;
}

int RepetitionHistory::record(const Position& pos) {
  if (pos.halfmove_clock == 0) keys_.clear();
  // The key is made where it is kept: a key made on the stack and copied in was read back
  // in wider pieces than it was written, a stall of its own.
  Position& key = keys_.emplace_back(pos);
  clear_what_repetition_ignores(key);
  // The positions alternate sides to move, one a ply: only every other one, from two plies
  // back, can be the same position.
  int occurrences = 1;
  for (std::size_t back = 3; back <= keys_.size(); back += 2) occurrences += keys_[keys_.size() - back] == key;
  return occurrences;
}

}  // namespace perftkit
