// The FEN board field rank by rank, with no branch a square: on x86-64 with SSSE3 (x86-64-v2
// and later), a whole rank is a few byte shuffles; elsewhere, square by square. And the
// choice between that and the whole board at once (fen_board_whole.cpp).
#include "notation/fen_board.hpp"

#include <array>
#include <cstdint>

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace perftkit {
namespace {

// The occupied squares of one rank (bit f: file f) as the rank's text: which of 16 source
// bytes each output byte takes (0-7: the letter on that file; 8 + n: the digit of a run of
// n + 1 empty squares; 0x80: nothing), and how many bytes the text has.
struct RankLayout {
  alignas(16) std::array<std::uint8_t, 16> take;
  std::uint8_t size;
};

constexpr std::array<RankLayout, 256> RANK_LAYOUTS = [] {
  std::array<RankLayout, 256> layouts{};
  for (int occupied = 0; occupied < 256; ++occupied) {
    RankLayout& layout = layouts[occupied];
    layout.take.fill(0x80);
    int size = 0, empty_run = 0;
    for (int file = 0; file < 8; ++file) {
      if (!(occupied >> file & 1)) {
        ++empty_run;
        continue;
      }
      if (empty_run) layout.take[size++] = std::uint8_t(8 + empty_run - 1);
      empty_run = 0;
      layout.take[size++] = std::uint8_t(file);
    }
    if (empty_run) layout.take[size++] = std::uint8_t(8 + empty_run - 1);
    layout.size = std::uint8_t(size);
  }
  return layouts;
}();

#if defined(__SSSE3__)

// Each square's byte of set b: 0xFF where b has the square, for two ranks (`ranks` spreads
// the two bytes of b that hold them over the lanes, eight each).
__m128i square_masks(Bitboard b, __m128i ranks) {
  const __m128i bit_of_file = _mm_set1_epi64x(std::int64_t(0x8040201008040201ULL));
  const __m128i bytes = _mm_shuffle_epi8(_mm_cvtsi64_si128(std::int64_t(b)), ranks);
  return _mm_cmpeq_epi8(_mm_and_si128(bytes, bit_of_file), bit_of_file);
}

// The letters of two ranks (0 on an empty square): each square's piece code
// (detail::LETTER_OF_PIECE_CODE), then looked up.
__m128i rank_pair_letters(const Position& pos, int pair) {
  using namespace detail;
  const __m128i ranks = _mm_set_epi64x(0x0101010101010101LL * (2 * pair + 1), 0x0101010101010101LL * (2 * pair));
  const auto weighted = [&](Bitboard b, char weight) {
    return _mm_and_si128(square_masks(b, ranks), _mm_set1_epi8(weight));
  };
  const __m128i code = _mm_add_epi8(
      _mm_add_epi8(_mm_add_epi8(weighted(pos.pawns, PAWN_WEIGHT), weighted(pos.knights, KNIGHT_WEIGHT)),
                   _mm_add_epi8(weighted(pos.diagonal, DIAGONAL_WEIGHT), weighted(pos.orthogonal, ORTHOGONAL_WEIGHT))),
      _mm_add_epi8(weighted(pos.kings, KING_WEIGHT), weighted(pos.by_color[WHITE], WHITE_WEIGHT)));
  const __m128i letter_of_code = _mm_load_si128(reinterpret_cast<const __m128i*>(LETTER_OF_PIECE_CODE.data()));
  return _mm_shuffle_epi8(letter_of_code, code);
}

}  // namespace

char* detail::write_fen_board_by_ranks(const Position& pos, char* out) {
  const __m128i digits = _mm_set1_epi64x(0x3837363534333231LL);  // "12345678"
  const Bitboard occupied = pos.occupied();
  char* p = out;
  for (int pair = 3; pair >= 0; --pair) {
    const __m128i letters = rank_pair_letters(pos, pair);
    for (int rank = 2 * pair + 1; rank >= 2 * pair; --rank) {
      // The rank's letters in bytes 0-7 and the digits in 8-15, then taken in text order.
      const __m128i source = _mm_unpacklo_epi64(rank & 1 ? _mm_srli_si128(letters, 8) : letters, digits);
      const RankLayout& layout = RANK_LAYOUTS[(occupied >> (8 * rank)) & 0xFF];
      const __m128i take = _mm_load_si128(reinterpret_cast<const __m128i*>(layout.take.data()));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_shuffle_epi8(source, take));
      p += layout.size;
      *p++ = '/';
    }
  }
  return p - 1;  // (no slash after rank 1)
}

#else

// The letter on sq, which is occupied.
char letter_on(const Position& pos, Square sq) {
  const char letter = " pnbrqk"[pos.piece_type_on(sq)];
  return pos.by_color[WHITE] & square_bb(sq) ? char(letter - ('a' - 'A')) : letter;
}

}  // namespace

char* detail::write_fen_board_by_ranks(const Position& pos, char* out) {
  const Bitboard occupied = pos.occupied();
  char* p = out;
  for (int rank = RANK_8; rank >= RANK_1; --rank) {
    const RankLayout& layout = RANK_LAYOUTS[(occupied >> (8 * rank)) & 0xFF];
    for (int i = 0; i < layout.size; ++i) {
      const int take = layout.take[i];
      *p++ = take < 8 ? letter_on(pos, make_square(take, rank)) : char('1' + take - 8);
    }
    *p++ = '/';
  }
  return p - 1;  // (no slash after rank 1)
}

#endif

namespace {

// Whether write_fen_board() writes the whole board at once: decided once, from the CPU.
bool whole_board_chosen() {
#if PERFTKIT_WHOLE_FEN_BOARD
  static const bool whole = detail::cpu_writes_whole_fen_board();
  return whole;
#else
  return false;
#endif
}

}  // namespace

std::string_view fen_board_writer_name() {
  if (whole_board_chosen()) return "whole board (AVX-512 VBMI2)";
#if defined(__SSSE3__)
  return "rank by rank (SSSE3)";
#else
  return "square by square";
#endif
}

char* write_fen_board(const Position& pos, char* out) {
#if PERFTKIT_WHOLE_FEN_BOARD
  if (whole_board_chosen()) return isa_avx512_vbmi2::write_fen_board(pos, out);
#endif
  return detail::write_fen_board_by_ranks(pos, out);
}

}  // namespace perftkit
