// FEN writing: six fields, castling as KQkq where the rook is the outermost one, else as
// the rook's file letter (X-FEN), without allocation (FenWriter also reuses the castling text).
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/decimal_text.hpp"
#include "notation/castling_rooks.hpp"
#include "notation/fen_board.hpp"
#include "notation/fen.hpp"

namespace perftkit {
namespace {

// The castling field: KQkq for a right whose rook is the outermost one on its side, else the
// rook's file (X-FEN); "-" for none. Written at out; returns the end.
char* write_castling(const Position& pos, char* out) {
  char* p = out;
  for (const Color c : {WHITE, BLACK})
    for (const CastlingSide side : {KING_SIDE, QUEEN_SIDE}) {
      const Square rook = pos.castling_rook(c, side);
      if (rook == SQ_NONE) continue;
      const char letter = rook == outermost(back_rank_rooks(pos, c, side), side) ? (side == KING_SIDE ? 'K' : 'Q')
                                                                                 : char('A' + file_of(rook));
      *p++ = c == WHITE ? letter : char(letter + ('a' - 'A'));
    }
  if (p == out) *p++ = '-';
  return p;
}

// The castling field's inputs: the rooks with a right, and the rooks and kings on the back
// ranks (which decide between K/Q and a file letter), ranks 1 and 8 of each in 16 bits.
std::uint64_t castling_key(const Position& pos) {
  const auto back = [](Bitboard b) { return (b & RANK_1_BB) | (b & rank_bb(RANK_8)) >> 48; };
  return back(pos.castling_rooks) | back(pos.rooks()) << 16 | back(pos.kings) << 32;
}

// The FEN fields after the board, from the space before the side to move, with the
// castling field as given.
char* write_fields_after_board(const Position& pos, std::string_view castling, char* p) {
  *p++ = ' ';
  *p++ = pos.side_to_move == WHITE ? 'w' : 'b';
  *p++ = ' ';
  std::memcpy(p, castling.data(), 4);  // (p has room; the field is 1 to 4 bytes)
  p += castling.size();
  *p++ = ' ';
  if (pos.ep_square == SQ_NONE) {
    *p++ = '-';
  } else {
    *p++ = char('a' + file_of(pos.ep_square));
    *p++ = char('1' + rank_of(pos.ep_square));
  }
  for (const std::uint32_t number : {std::uint32_t(pos.halfmove_clock), pos.fullmove_number}) {
    *p++ = ' ';
    // (a clock below 1000 takes four bytes of room at most, as few as the longest FEN's)
    p = write_decimal_in_room(p, number);
  }
  return p;
}

}  // namespace

char* write_fen(const Position& pos, char* out) { return FenWriter().write(pos, out); }

std::string_view FenWriter::castling_field(const Position& pos) {
  static constexpr std::array<char, 4> NONE = {'-'};  // (four bytes: the field is copied as four)
  if (!pos.castling_rooks) return {NONE.data(), 1};
  if (const std::uint64_t key = castling_key(pos); key != castling_key_) {
    castling_key_ = key;
    castling_size_ = std::uint8_t(write_castling(pos, castling_text_.data()) - castling_text_.data());
  }
  return {castling_text_.data(), castling_size_};
}

char* FenWriter::write(const Position& pos, char* out) {
  static_assert(FEN_BOARD_ROOM <= FEN_MAX_BYTES);
  return write_fields_after_board(pos, castling_field(pos), write_fen_board(pos, out));
}

std::string to_fen(const Position& pos) {
  char buffer[FEN_MAX_BYTES];
  return std::string(buffer, write_fen(pos, buffer));
}

}  // namespace perftkit
