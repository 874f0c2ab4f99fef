// Unsigned integers as decimal text, written in place (FEN clocks, row numbers, CSV columns):
// the one writer, two digits at a time.
#pragma once

#include <array>
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
}  // namespace detail

// Writes value in decimal (no sign, no leading zeros; "0" for 0) at out, at most 20 bytes;
// returns the end.
inline char* write_decimal(char* out, std::uint64_t value) {
  char digits[20];
  char* d = digits + sizeof digits;
  while (value >= 100) {
    d -= 2;
    std::memcpy(d, &detail::DIGIT_PAIRS[2 * (value % 100)], 2);
    value /= 100;
  }
  if (value >= 10) {
    d -= 2;
    std::memcpy(d, &detail::DIGIT_PAIRS[2 * value], 2);
  } else {
    *--d = char('0' + value);
  }
  const std::size_t n = std::size_t(digits + sizeof digits - d);
  std::memcpy(out, d, n);
  return out + n;
}

}  // namespace perftkit
