// The field separators of FEN, EPD and suite lines, tested one byte or eight at a time.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace perftkit {

// " \t\n\v\f\r" and NUL (real files end lines with NUL or CR).
inline constexpr std::array<bool, 256> BLANK_BYTES = [] {
  std::array<bool, 256> blank{};
  for (const char ch : std::string_view(" \t\n\v\f\r\0", 7)) blank[std::uint8_t(ch)] = true;
  return blank;
}();

inline bool is_blank(char ch) { return BLANK_BYTES[std::uint8_t(ch)]; }

// The high bit of each byte of the result is set where that byte of w is a blank; exact for
// every byte value (the sums below never carry from one byte into the next).
inline std::uint64_t blank_bytes(std::uint64_t w) {
  constexpr std::uint64_t ONES = 0x0101010101010101ULL, HIGHS = 0x8080808080808080ULL, LOWS = ~HIGHS;
  const auto zero = [](std::uint64_t x) { return ~(((x & LOWS) + LOWS) | x) & HIGHS; };
  const std::uint64_t low = w & LOWS;
  const std::uint64_t tab_to_cr = (low + (0x80 - '\t') * ONES) & ~(low + (0x80 - '\r' - 1) * ONES) & ~w & HIGHS;
  return zero(w ^ (' ' * ONES)) | zero(w) | tab_to_cr;
}

}  // namespace perftkit
