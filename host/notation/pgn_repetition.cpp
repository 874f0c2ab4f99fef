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

}  // namespace

Position repetition_key(const Position& pos) {
  Position key = pos;
  key.halfmove_clock = 0;
  key.fullmove_number = 0;
  if (key.ep_square != SQ_NONE && !has_legal_en_passant(pos)) key.ep_square = SQ_NONE;
  return key;
}

int RepetitionHistory::record(const Position& pos) {
  if (pos.halfmove_clock == 0) keys_.clear();
  const Position key = repetition_key(pos);
  // The positions alternate sides to move, one a ply: only every other one, from two plies
  // back, can be the same position.
  int occurrences = 1;
  for (std::size_t back = 2; back <= keys_.size(); back += 2) occurrences += keys_[keys_.size() - back] == key;
  keys_.push_back(key);
  return occurrences;
}

}  // namespace perftkit
