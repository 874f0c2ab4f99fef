// Basic chess types: colours, pieces, squares, castling sides and the 16-bit move.
#pragma once

#include <cstdint>

#include "perftkit/config.hpp"

namespace perftkit {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

PERFTKIT_HD_INLINE constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7 };

// clang-format off
enum Square : std::uint8_t {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE, SQUARE_NB = 64
};
// clang-format on

enum File : std::uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H };
enum Rank : std::uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8 };

// Castling sides: the king ends on the g-file (KING_SIDE) or the c-file (QUEEN_SIDE).
enum CastlingSide : std::uint8_t { KING_SIDE, QUEEN_SIDE };

PERFTKIT_HD_INLINE constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
PERFTKIT_HD_INLINE constexpr int file_of(Square s) { return s & 7; }
PERFTKIT_HD_INLINE constexpr int rank_of(Square s) { return s >> 3; }
// The square as seen from c's side of the board (rank flipped for Black).
PERFTKIT_HD_INLINE constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
PERFTKIT_HD_INLINE constexpr int relative_rank(Color c, int rank) { return rank ^ (c * 7); }

// A move needs 16 bits:
// bit  0- 5: destination square (for castling: the castling rook's square, as in Chess960)
// bit  6-11: origin square
// bit 12-13: promotion piece type - KNIGHT (KNIGHT..QUEEN)
// bit 14-15: special move flag: promotion (1), en passant (2), castling (3)
enum MoveType : std::uint16_t { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

class Move {
 public:
  Move() = default;
  PERFTKIT_HD_INLINE constexpr explicit Move(std::uint16_t raw) : data_(raw) {}
  PERFTKIT_HD_INLINE constexpr Move(Square from, Square to) : data_(std::uint16_t((from << 6) | to)) {}

  template <MoveType T>
  PERFTKIT_HD_INLINE static constexpr Move make(Square from, Square to, PieceType promo = KNIGHT) {
    return Move(std::uint16_t(T | ((promo - KNIGHT) << 12) | (from << 6) | to));
  }

  PERFTKIT_HD_INLINE constexpr Square from() const { return Square((data_ >> 6) & 0x3F); }
  PERFTKIT_HD_INLINE constexpr Square to() const { return Square(data_ & 0x3F); }
  PERFTKIT_HD_INLINE constexpr MoveType type() const { return MoveType(data_ & (3 << 14)); }
  PERFTKIT_HD_INLINE constexpr PieceType promotion_type() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
  PERFTKIT_HD_INLINE constexpr std::uint16_t raw() const { return data_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t data_ = 0;
};

}  // namespace perftkit
