#include "notation/quoted_text.hpp"

#include <cstdint>

namespace perftkit {

std::string quoted_text(std::string_view text, std::size_t max_shown) {
  static constexpr char HEX[] = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto byte = static_cast<std::uint8_t>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) out += char(byte);
    else out += std::string("\\x") + HEX[byte >> 4] + HEX[byte & 15];
  }
  if (text.size() > max_shown) out += "...";
  return out + "'";
}

}  // namespace perftkit
