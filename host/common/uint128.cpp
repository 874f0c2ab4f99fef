#include "common/uint128.hpp"

#include <algorithm>

namespace perftkit {

std::string to_string_u128(u128 v) {
  if (v == 0) return "0";
  std::string digits;
  while (v) {
    digits.push_back(char('0' + int(v % 10)));
    v /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<u128> parse_u128(std::string_view text) {
  if (text.empty() || text.size() > 39) return std::nullopt;
  u128 v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const u128 next = v * 10 + u128(c - '0');
    if (next / 10 != v) return std::nullopt;
    v = next;
  }
  return v;
}

}  // namespace perftkit
