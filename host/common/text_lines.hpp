// Numbered lines of a text, and the blanks trimmed around fields: one tokenizer for every
// line-based input (suites, position lists, classify's FEN/EPD and CSV/TSV/JSONL rows).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/blank_bytes.hpp"

namespace perftkit {

// Splits text at '\n'. A line comes without its '\n' and without one '\r' before it (CRLF
// files); a final '\n' does not start an empty line. Lines are numbered from first_number.
class TextLines {
 public:
  explicit TextLines(std::string_view text, std::uint64_t first_number = 1)
      : at_(text.data()), end_(text.data() + text.size()), number_(first_number - 1) {}

  // The next line; false after the last one.
  bool next(std::string_view& line) {
    if (at_ >= end_) return false;
    const char* eol = static_cast<const char*>(std::memchr(at_, '\n', std::size_t(end_ - at_)));
    if (!eol) eol = end_;
    line = std::string_view(at_, std::size_t(eol - at_));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at_ = eol + 1;
    ++number_;
    return true;
  }

  // The number of the line that next() returned last.
  std::uint64_t number() const { return number_; }

 private:
  const char* at_;
  const char* end_;
  std::uint64_t number_;
};

// text without the blanks (space, tab, CR, VT, FF, NUL: some EPD files end lines with NUL)
// at either end.
inline std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// text without a leading UTF-8 byte order mark.
inline std::string_view without_byte_order_mark(std::string_view text) {
  constexpr std::string_view BOM = "\xEF\xBB\xBF";
  if (text.starts_with(BOM)) text.remove_prefix(BOM.size());
  return text;
}

}  // namespace perftkit
