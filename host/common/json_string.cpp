#include "common/json_string.hpp"

#include <cstring>

namespace perftkit {

std::size_t utf8_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned min_second = 0x80, max_second = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) min_second = 0xA0;  // overlong
    if (lead == 0xED) max_second = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) min_second = 0x90;  // overlong
    if (lead == 0xF4) max_second = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < n || byte(1) < min_second || byte(1) > max_second) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

char* put_json_string(char* p, std::string_view text) {
  static constexpr char HEX[] = "0123456789abcdef";
  *p++ = '"';
  for (std::size_t i = 0; i < text.size();) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (ch >= 0x20 && ch < 0x80 && ch != '"' && ch != '\\') {
      *p++ = char(ch);
      ++i;
    } else if (ch == '"' || ch == '\\') {
      *p++ = '\\';
      *p++ = char(ch);
      ++i;
    } else if (ch < 0x20) {
      std::memcpy(p, "\\u00", 4);
      p += 4;
      *p++ = HEX[ch >> 4];
      *p++ = HEX[ch & 15];
      ++i;
    } else if (const std::size_t n = utf8_sequence_length(text.substr(i))) {
      std::memcpy(p, text.data() + i, n);
      p += n;
      i += n;
    } else {
      std::memcpy(p, "\\ufffd", 6);
      p += 6;
      ++i;
    }
  }
  *p++ = '"';
  return p;
}

std::string json_escape(std::string_view text) {
  std::string out(json_string_bound(text.size()), '\0');
  const char* end = put_json_string(out.data(), text);
  out.resize(std::size_t(end - out.data()) - 1);  // without the closing quote...
  out.erase(0, 1);                                // ...and the opening one
  return out;
}

}  // namespace perftkit
