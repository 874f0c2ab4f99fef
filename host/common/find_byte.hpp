// The first place of a byte in a text, for the short distances of PGN (a brace comment's
// close is a few dozen bytes on): sixteen bytes a step, inline, where memchr is a call with a
// start-up of its own.
#pragma once

#include <bit>
#include <cstddef>
#include <string_view>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace perftkit {

// string_view::find(byte, from) without the call: npos when text has none from there on.
inline std::size_t find_byte(std::string_view text, char byte, std::size_t from) {
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i wanted = _mm_set1_epi8(byte);
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    if (const unsigned hits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted))))
      return i + std::size_t(std::countr_zero(hits));
  }
#endif
  for (; i < text.size(); ++i)
    if (text[i] == byte) return i;
  return std::string_view::npos;
}

// The first place from `from` on of either of two bytes; npos when text has neither.
inline std::size_t find_either_byte(std::string_view text, char first, char second, std::size_t from) {
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i wanted_first = _mm_set1_epi8(first), wanted_second = _mm_set1_epi8(second);
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    const __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(bytes, wanted_first), _mm_cmpeq_epi8(bytes, wanted_second));
    if (const unsigned mask = unsigned(_mm_movemask_epi8(hits))) return i + std::size_t(std::countr_zero(mask));
  }
#endif
  for (; i < text.size(); ++i)
    if (text[i] == first || text[i] == second) return i;
  return std::string_view::npos;
}

}  // namespace perftkit
