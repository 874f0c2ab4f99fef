#include "common/checksum64.hpp"

namespace perftkit {

std::string to_hex64(std::uint64_t value) {
  static constexpr char DIGITS[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[std::size_t(i)] = DIGITS[value & 15];
  return text;
}

std::optional<std::uint64_t> parse_hex64(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    else return std::nullopt;
    value = value << 4 | std::uint64_t(digit);
  }
  return value;
}

}  // namespace perftkit
