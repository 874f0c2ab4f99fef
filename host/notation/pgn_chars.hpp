// The bytes of PGN's tokens (the PGN standard, section 7) and its termination markers
// (8.2.6), shared by the lexer and the game splitter, which look at every byte of a game.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "common/find_byte.hpp"
#include "common/nibble_byte_set.hpp"

namespace perftkit::pgn_chars {

// Character classes as one table lookup each.
enum CharClass : std::uint8_t { SPACE = 1, ALNUM = 2, SYMBOL = 4 };

constexpr std::array<std::uint8_t, 256> char_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (const char ch : {' ', '\t', '\n', '\r', '\v', '\f'}) classes[std::uint8_t(ch)] = SPACE;
  for (int ch = 0; ch < 256; ++ch)
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) classes[ch] = ALNUM | SYMBOL;
  // Symbol continuation characters (PGN 7): letters, digits and _ + # = : - /.
  for (const char ch : {'_', '+', '#', '=', ':', '-', '/'}) classes[std::uint8_t(ch)] = SYMBOL;
  return classes;
}
inline constexpr std::array<std::uint8_t, 256> CHAR_CLASSES = char_classes();

constexpr bool is_space(char ch) { return CHAR_CLASSES[std::uint8_t(ch)] & SPACE; }
inline bool is_alnum(char ch) { return CHAR_CLASSES[std::uint8_t(ch)] & ALNUM; }  // a symbol's first byte
inline bool is_symbol_char(char ch) { return CHAR_CLASSES[std::uint8_t(ch)] & SYMBOL; }
inline bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }  // move numbers, NAGs

inline constexpr NibbleByteSet SYMBOL_SET =
    NibbleByteSet::of([](int ch) { return CHAR_CLASSES[std::size_t(ch)] & SYMBOL; });
static_assert(SYMBOL_SET.exact([](int ch) { return CHAR_CLASSES[std::size_t(ch)] & SYMBOL; }));

// Where a symbol that goes on at `from` ends: the first byte from there that is no symbol
// character, or the text's end. Sixteen bytes a step: symbols (move numbers, moves) differ in
// length from token to token, and the exit of a loop a byte at a time was a mispredicted
// branch for most of them.
inline std::size_t symbol_end(std::string_view text, std::size_t from) {
  std::size_t i = from;
#if defined(__SSSE3__)
  for (; i + 16 <= text.size(); i += 16)
    if (const unsigned others = ~bytes_in_set(text.data() + i, SYMBOL_SET) & 0xFFFFu)
      return i + std::size_t(std::countr_zero(others));
#endif
  while (i < text.size() && is_symbol_char(text[i])) ++i;
  return i;
}

// The place of the quote that closes a string whose text starts at `from` (PGN 7: a backslash
// escapes the byte after it); npos when the text ends first.
inline std::size_t string_close(std::string_view text, std::size_t from) {
  for (std::size_t i = from;; i += 2) {  // (past a backslash and the byte it escapes)
    i = find_either_byte(text, '"', '\\', i);
    if (i == std::string_view::npos || text[i] == '"') return i;
  }
}

// The symbols that end a game: 1-0, 0-1 and 1/2-1/2 (the fourth marker, *, is a token of its own).
inline bool is_result_symbol(std::string_view symbol) {
  return symbol == "1-0" || symbol == "0-1" || symbol == "1/2-1/2";
}

}  // namespace perftkit::pgn_chars
