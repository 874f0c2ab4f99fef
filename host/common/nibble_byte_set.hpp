// A set of byte values tested sixteen bytes at a time: a byte is in the set when the entries
// of its low and its high nibble in two 16-byte tables share a bit, two SSSE3 shuffles for
// sixteen bytes (x86-64-v2 and later). Callers keep a byte-by-byte loop for other builds.
#pragma once

#include <array>
#include <cstdint>

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace perftkit {

struct NibbleByteSet {
  std::array<std::uint8_t, 16> low{}, high{};

  // Each high nibble's row (the low nibbles that the set holds under it) gets the bit of the
  // first high nibble with the same row; the set must have at most eight distinct rows, which
  // exact() confirms.
  template <typename Contains>
  static constexpr NibbleByteSet of(Contains contains) {
    NibbleByteSet set;
    std::array<std::uint16_t, 8> rows{};
    int row_count = 0;
    for (int high = 0; high < 16; ++high) {
      std::uint16_t row = 0;
      for (int low = 0; low < 16; ++low)
        if (contains(high * 16 + low)) row = std::uint16_t(row | 1u << low);
      if (row == 0) continue;
      int bit = 0;
      while (bit < row_count && rows[std::size_t(bit)] != row) ++bit;
      if (bit == 8) return NibbleByteSet{};  // (too many rows: exact() fails)
      if (bit == row_count) rows[std::size_t(row_count++)] = row;
      set.high[std::size_t(high)] = std::uint8_t(set.high[std::size_t(high)] | 1u << bit);
      for (int low = 0; low < 16; ++low)
        if (row >> low & 1) set.low[std::size_t(low)] = std::uint8_t(set.low[std::size_t(low)] | 1u << bit);
    }
    return set;
  }

  constexpr bool contains(int byte) const { return (low[std::size_t(byte & 15)] & high[std::size_t(byte >> 4)]) != 0; }

  // Whether the tables hold exactly the bytes that `contains` does.
  template <typename Contains>
  constexpr bool exact(Contains wanted) const {
    for (int byte = 0; byte < 256; ++byte)
      if (contains(byte) != bool(wanted(byte))) return false;
    return true;
  }
};

#if defined(__SSSE3__)
// Bit i is set where byte i of the sixteen at p is in the set.
inline unsigned bytes_in_set(const char* p, const NibbleByteSet& set) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const __m128i low = _mm_and_si128(bytes, nibble), high = _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble);
  const __m128i low_bits = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(set.low.data())), low);
  const __m128i high_bits = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(set.high.data())), high);
  const __m128i none = _mm_cmpeq_epi8(_mm_and_si128(low_bits, high_bits), _mm_setzero_si128());
  return unsigned(_mm_movemask_epi8(none)) ^ 0xFFFFu;
}
#endif

}  // namespace perftkit
