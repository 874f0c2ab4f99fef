// The FEN board field of the whole board at once, on x86-64 CPUs with AVX-512 BW, VBMI and
// VBMI2 (and BMI2): every square's character is made side by side, the board is spread into
// two halves of four 9-byte groups (a rank's eight squares, then '/'), and the bytes the FEN
// keeps (letters, and a digit where a run of empty squares ends) are packed together. Only
// the functions here are built for those instructions, and only called once the CPU is
// known to have them.
#include "notation/fen_board.hpp"

#if PERFTKIT_WHOLE_FEN_BOARD

#include <immintrin.h>

#include <array>
#include <cstdint>

// What the functions below are built for. (They use the zero-masked forms of shifts,
// permutes and broadcasts, with every lane kept: g++ 12's plain ones trip -Wuninitialized
// inside its headers.)
#define PERFTKIT_WHOLE_BOARD_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))

namespace perftkit {

bool detail::cpu_writes_whole_fen_board() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}

namespace isa_avx512_vbmi2 {
namespace {

// In a half board's text, the bytes of the squares (four groups of eight) and of the
// slashes that end each group.
constexpr std::uint64_t SQUARE_BYTES = 0xFFULL | 0xFFULL << 9 | 0xFFULL << 18 | 0xFFULL << 27;
constexpr std::uint64_t SLASH_BYTES = 1ULL << 8 | 1ULL << 17 | 1ULL << 26 | 1ULL << 35;

// Which square each byte of a half board's text shows: group g is rank top_rank - g, its
// byte f file f (a slash's byte takes any square; it is replaced).
struct alignas(64) HalfSpread {
  std::array<std::uint8_t, 64> square;
};

constexpr HalfSpread half_spread(int top_rank) {
  HalfSpread spread{};
  for (int byte = 0; byte < 36; ++byte) {
    const int group = byte / 9, file = byte % 9;
    spread.square[byte] = std::uint8_t(file < 8 ? 8 * (top_rank - group) + file : 0);
  }
  return spread;
}

constexpr HalfSpread UPPER_HALF = half_spread(7), LOWER_HALF = half_spread(3);

// A half board's text: its characters spread into 9-byte groups with their slashes, of
// which the bytes in keep (in text order) are packed to the front.
PERFTKIT_WHOLE_BOARD_TARGET inline __m512i half_text(__m512i characters, const HalfSpread& spread, std::uint64_t keep) {
  const __m512i squares = _mm512_maskz_permutexvar_epi8(~0ULL, _mm512_load_si512(spread.square.data()), characters);
  const __m512i with_slashes = _mm512_mask_blend_epi8(SLASH_BYTES, squares, _mm512_set1_epi8('/'));
  return _mm512_maskz_compress_epi8(keep, with_slashes);
}

// The kept bytes of four ranks (32 bits, the top rank in the low byte) in a half's text.
PERFTKIT_WHOLE_BOARD_TARGET inline std::uint64_t half_keep(std::uint32_t ranks) {
  return _pdep_u64(ranks, SQUARE_BYTES) | SLASH_BYTES;
}

}  // namespace

PERFTKIT_WHOLE_BOARD_TARGET char* write_fen_board(const Position& pos, char* out) {
  const Bitboard occupied = pos.by_color[WHITE] | pos.by_color[BLACK];
  // Each square's letter (0 where empty): its piece code (detail::LETTER_OF_PIECE_CODE),
  // then looked up.
  using namespace detail;
  __m512i code = _mm512_maskz_mov_epi8(pos.pawns, _mm512_set1_epi8(PAWN_WEIGHT));
  code = _mm512_mask_add_epi8(code, pos.knights, code, _mm512_set1_epi8(KNIGHT_WEIGHT));
  code = _mm512_mask_add_epi8(code, pos.diagonal, code, _mm512_set1_epi8(DIAGONAL_WEIGHT));
  code = _mm512_mask_add_epi8(code, pos.orthogonal, code, _mm512_set1_epi8(ORTHOGONAL_WEIGHT));
  code = _mm512_mask_add_epi8(code, pos.kings, code, _mm512_set1_epi8(KING_WEIGHT));
  code = _mm512_mask_add_epi8(code, pos.by_color[WHITE], code, _mm512_set1_epi8(WHITE_WEIGHT));
  const __m512i letter_of_code = _mm512_maskz_broadcast_i32x4(
      0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(LETTER_OF_PIECE_CODE.data())));
  const __m512i letters = _mm512_shuffle_epi8(letter_of_code, code);

  // Each empty square's digit: the length of the empty run up to it, its file less that of
  // the last occupied square before it on the rank (a running maximum of file + 1 over the
  // occupied squares, carried along each rank's eight bytes in three steps).
  const __m512i file_plus_one = _mm512_set1_epi64(0x0807060504030201LL);
  __m512i last_occupied = _mm512_maskz_mov_epi8(occupied, file_plus_one);
  last_occupied = _mm512_max_epu8(last_occupied, _mm512_maskz_slli_epi64(0xFF, last_occupied, 8));
  last_occupied = _mm512_max_epu8(last_occupied, _mm512_maskz_slli_epi64(0xFF, last_occupied, 16));
  last_occupied = _mm512_max_epu8(last_occupied, _mm512_maskz_slli_epi64(0xFF, last_occupied, 32));
  const __m512i digits = _mm512_add_epi8(_mm512_sub_epi8(file_plus_one, last_occupied), _mm512_set1_epi8('0'));
  const __m512i characters = _mm512_mask_blend_epi8(occupied, digits, letters);

  // The FEN keeps every occupied square, and an empty one whose run ends there (on file h,
  // or before an occupied square).
  const Bitboard empty = ~occupied;
  const Bitboard keep = occupied | (empty & ~((empty >> 1) & ~FILE_H_BB));
  const std::uint64_t upper_keep = half_keep(__builtin_bswap32(std::uint32_t(keep >> 32)));
  const std::uint64_t lower_keep = half_keep(__builtin_bswap32(std::uint32_t(keep)));
  const auto upper_size = std::size_t(__builtin_popcountll(upper_keep));
  const auto lower_size = std::size_t(__builtin_popcountll(lower_keep));
  // The upper half in one store (64 bytes of room); the lower one ends the text and writes
  // only its own bytes, so the room needed stays at 36 + 36.
  _mm512_storeu_si512(out, half_text(characters, UPPER_HALF, upper_keep));
  _mm512_mask_storeu_epi8(out + upper_size, _bzhi_u64(~0ULL, unsigned(lower_size)),
                          half_text(characters, LOWER_HALF, lower_keep));
  return out + upper_size + lower_size - 1;  // (no slash after rank 1)
}

}  // namespace isa_avx512_vbmi2
}  // namespace perftkit

#endif
