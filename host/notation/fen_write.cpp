// FEN writing: six fields, castling as KQkq where the rook is the outermost one, else as
// the rook's file letter (X-FEN), without allocation (FenWriter also reuses unchanged ranks).
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/decimal_text.hpp"
#include "notation/castling_rooks.hpp"
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

// The FEN letter of each piece code: bit 0 white, then pawn, knight, diagonal slider,
// orthogonal slider (both: a queen) and king.
constexpr std::array<char, 64> LETTER_OF_PIECE_CODE = [] {
  std::array<char, 64> letters{};
  for (int code = 0; code < 64; ++code) {
    const bool diagonal = code & 8, orthogonal = code & 16;
    char letter = '?';
    if (code & 2) letter = 'p';
    else if (code & 4) letter = 'n';
    else if (diagonal) letter = orthogonal ? 'q' : 'b';
    else if (orthogonal) letter = 'r';
    else if (code & 32) letter = 'k';
    letters[code] = code & 1 ? char(letter - ('a' - 'A')) : letter;
  }
  return letters;
}();

// The rank's bit of each piece set, gathered in one word (a byte a set, in the order of the
// piece codes): equal words, equal rank texts.
std::uint64_t rank_pieces(const Position& pos, int rank) {
  const int shift = 8 * rank;
  const auto byte = [shift](Bitboard b) { return (b >> shift) & 0xFF; };
  return byte(pos.by_color[WHITE]) | byte(pos.pawns) << 8 | byte(pos.knights) << 16 | byte(pos.diagonal) << 24 |
         byte(pos.orthogonal) << 32 | byte(pos.kings) << 40;
}

// One rank of the FEN board from its rank_pieces(): the occupied squares from file a to h,
// with the count of empty squares before each and after the last. A square's piece code is
// one shift and one multiply away: the multiplier moves bit 0 of byte i to bit 40 + i, and
// no two of its products overlap.
char* write_rank(std::uint64_t pieces, char* p) {
  constexpr std::uint64_t BIT_0_OF_EACH_SET = 0x0000010101010101;
  constexpr std::uint64_t GATHER =
      (1ULL << 40) | (1ULL << 33) | (1ULL << 26) | (1ULL << 19) | (1ULL << 12) | (1ULL << 5);
  int next_file = FILE_A;
  for (Bitboard occupied = (pieces >> 8 | pieces >> 16 | pieces >> 24 | pieces >> 32 | pieces >> 40) & 0xFF;
       occupied;) {
    const int file = pop_lsb(occupied);
    if (file > next_file) *p++ = char('0' + file - next_file);
    *p++ = LETTER_OF_PIECE_CODE[(((pieces >> file) & BIT_0_OF_EACH_SET) * GATHER) >> 40 & 63];
    next_file = file + 1;
  }
  if (next_file <= FILE_H) *p++ = char('0' + FILE_H + 1 - next_file);
  return p;
}

// Rank texts met before, by their rank_pieces(): a few thousand ranks make up most of the
// boards of real games, so a rank a move changes is usually looked up, not written. One
// direct-mapped table a thread (a FenWriter lives for one game; the table for the run).
class RankTextCache {
 public:
  // The text of the rank with these pieces, written on a miss.
  const FenRankText& text(std::uint64_t pieces) {
    FenRankText& entry = entries_[(pieces * 0x9E3779B97F4A7C15ULL) >> (64 - BITS)];
    if (entry.pieces != pieces) {
      entry.pieces = pieces;
      entry.size = std::uint8_t(write_rank(pieces, entry.text.data()) - entry.text.data());
    }
    return entry;
  }

 private:
  static constexpr int BITS = 12;
  std::array<FenRankText, 1 << BITS> entries_{};
};

constinit thread_local RankTextCache rank_texts;

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

// The ranks with a bit set in squares: bit r of the result for any bit of rank r. Each byte
// is folded onto its bit 0, and the multiplier gathers the eight bits into the top byte
// (bit 8r lands on 56 + r; no two products share a bit, so nothing carries).
std::uint32_t ranks_touched(Bitboard squares) {
  std::uint64_t x = squares | squares >> 4;
  x |= x >> 2;
  x |= x >> 1;
  return std::uint32_t(((x & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
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
  const std::array<std::uint64_t, 6> sets = {pos.by_color[WHITE], pos.pawns,      pos.knights,
                                             pos.diagonal,        pos.orthogonal, pos.kings};
  std::uint64_t changed = 0;  // the squares where any set differs from the last write's
  for (std::size_t i = 0; i < sets.size(); ++i) changed |= sets[i] ^ last_sets_[i];
  // (no rank can hold a piece in every set: the first write finds every rank changed)
  last_sets_ = sets;
  for (std::uint32_t ranks = ranks_touched(changed); ranks; ranks &= ranks - 1) {
    const int rank = std::countr_zero(ranks);
    ranks_[rank] = rank_texts.text(rank_pieces(pos, rank));
  }
  // Eight texts and their slashes with no test: the slash after rank 1 is overwritten.
  char* p = out;
  for (int rank = RANK_8; rank >= RANK_1; --rank) {
    // (out has room: the board is at most 71 bytes)
    std::memcpy(p, ranks_[rank].text.data(), ranks_[rank].text.size());
    p += ranks_[rank].size;
    *p++ = '/';
  }
  return write_fields_after_board(pos, castling_field(pos), p - 1);
}

std::string to_fen(const Position& pos) {
  char buffer[FEN_MAX_BYTES];
  return std::string(buffer, write_fen(pos, buffer));
}

}  // namespace perftkit
