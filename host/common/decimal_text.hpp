// Unsigned integers as decimal text, written in place (FEN clocks, row numbers, CSV columns):
// the one writer, two digits at a time.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace perftkit {

namespace detail {
// "00" to "99".
inline constexpr std::array<char, 200> DIGIT_PAIRS = [] {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[std::size_t(2 * i)] = char('0' + i / 10);
    pairs[std::size_t(2 * i + 1)] = char('0' + i % 10);
  }
  return pairs;
}();

// 10^0 to 10^19, every power of ten a 64-bit word holds.
inline constexpr std::array<std::uint64_t, 20> POWERS_OF_TEN = [] {
  std::array<std::uint64_t, 20> powers{};
  std::uint64_t power = 1;
  for (std::uint64_t& entry : powers) {
    entry = power;
    power *= 10;  // (wraps after the last, unused)
  }
  return powers;
}();

// 0 to 999 as text in four bytes: the digits, then their count in the last byte.
inline constexpr std::array<std::array<char, 4>, 1000> SMALL_DECIMALS = [] {
  std::array<std::array<char, 4>, 1000> texts{};
  for (int value = 0; value < 1000; ++value) {
    std::array<char, 4>& text = texts[std::size_t(value)];
    const int digits = value >= 100 ? 3 : value >= 10 ? 2 : 1;
    for (int i = digits - 1, rest = value; i >= 0; --i, rest /= 10) text[std::size_t(i)] = char('0' + rest % 10);
    text[3] = char(digits);
  }
  return texts;
}();

// 000 to 999: three digits each, zeros in front.
inline constexpr std::array<std::array<char, 3>, 1000> PADDED_DECIMALS = [] {
  std::array<std::array<char, 3>, 1000> texts{};
  for (int value = 0; value < 1000; ++value)
    texts[std::size_t(value)] = {char('0' + value / 100), char('0' + value / 10 % 10), char('0' + value % 10)};
  return texts;
}();
}  // namespace detail

// The number of decimal digits of value (1 for 0), without a loop: the bit width times
// log10(2) (1233 / 4096) is the count less one, or one too many, which a power of ten settles.
inline int decimal_digits(std::uint64_t value) {
  const std::uint64_t nonzero = value | 1;
  const int guess = (int(std::bit_width(nonzero)) * 1233) >> 12;
  return guess + 1 - (nonzero < detail::POWERS_OF_TEN[guess]);
}

// Writes value in decimal (no sign, no leading zeros; "0" for 0) at out, at most 20 bytes;
// returns the end. The digits go straight to their places from the last one back: no copy
// of a variable length (which would be a library call).
inline char* write_decimal(char* out, std::uint64_t value) {
  char* const end = out + decimal_digits(value);
  char* d = end;
  while (value >= 100) {
    d -= 2;
    std::memcpy(d, &detail::DIGIT_PAIRS[2 * (value % 100)], 2);
    value /= 100;
  }
  if (value >= 10) std::memcpy(d - 2, &detail::DIGIT_PAIRS[2 * value], 2);
  else d[-1] = char('0' + value);
  return end;
}

// write_decimal for the numbers that fill rows (clocks, counts, plies, game numbers), where
// the digit count is anyone's guess: below 1000 one four-byte copy from a table, with no
// branch on the count; below a million, that for the thousands and three digits after it.
// It may write up to four bytes at out whatever the value, so out must have room for four;
// the bytes past the returned end are left for the next field to overwrite.
inline char* write_decimal_in_room(char* out, std::uint64_t value) {
  if (value >= 1000000) return write_decimal(out, value);
  const auto small = std::uint32_t(value);
  const std::array<char, 4>& text = detail::SMALL_DECIMALS[small < 1000 ? small : small / 1000];
  std::memcpy(out, text.data(), 4);
  if (small < 1000) return out + text[3];
  char* const rest = out + text[3];
  std::memcpy(rest, detail::PADDED_DECIMALS[small % 1000].data(), 3);
  return rest + 3;
}

}  // namespace perftkit
