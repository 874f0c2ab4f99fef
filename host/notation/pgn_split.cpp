// Game boundaries in a PGN stream (PGN standard 8.2.6: a game ends with its termination marker).
// The reader thread cuts every game of a stream here, so the tokens are stepped over in place
// by the lexer's rules (pgn_lexer.hpp) without being built; only a symbol that could be a
// termination marker is compared.
#include "notation/pgn_split.hpp"

#include <array>
#include <bit>
#include <cstdint>

#include "common/find_byte.hpp"
#include "common/nibble_byte_set.hpp"
#include "notation/pgn_chars.hpp"

namespace perftkit {

using pgn_chars::is_alnum;
using pgn_chars::is_digit;
using pgn_chars::is_result_symbol;
using pgn_chars::is_space;

namespace {

// Movetext bytes that neither end a game nor change the splitter's state: blanks, letters,
// digits, periods, NAGs' '$', and + # = : _ ! ?. No termination marker is made of these
// alone (each holds '-' or '/', or is '*'), and every byte that opens or closes a tag,
// comment, variation or string, or starts an escape line is left out.
constexpr std::array<bool, 256> quiet_bytes() {
  std::array<bool, 256> quiet{};
  for (int ch = 0; ch < 256; ++ch)
    quiet[std::size_t(ch)] = pgn_chars::CHAR_CLASSES[std::size_t(ch)] & (pgn_chars::SPACE | pgn_chars::ALNUM);
  for (const char ch : {'.', '$', '+', '#', '=', ':', '_', '!', '?'}) quiet[std::uint8_t(ch)] = true;
  return quiet;
}
constexpr std::array<bool, 256> QUIET = quiet_bytes();

// The same sets, sixteen bytes at a time.
constexpr bool is_loud(int ch) { return !QUIET[std::size_t(ch)]; }
constexpr bool is_blank(int ch) { return is_space(char(ch)); }
constexpr NibbleByteSet LOUD_SET = NibbleByteSet::of(is_loud);
constexpr NibbleByteSet BLANK_SET = NibbleByteSet::of(is_blank);
static_assert(LOUD_SET.exact(is_loud) && BLANK_SET.exact(is_blank));

// From a token's start outside tags: the start of the token where the run of quiet bytes
// ends. A blank ends every token, so the tokens before the run's last blank are whole, and
// quiet: stepping over them is what tokenizing them would do. Once in the movetext, a brace
// comment changes nothing either (a '{' ends the token before it, and the comment ends at
// the first '}'), so the run goes on after it: lichess writes one after every move, and a
// return to the caller's token loop for each cost more than the comment. A comment whose
// close is not in the text is left to the caller.
std::size_t after_quiet_tokens(std::string_view text, std::size_t pos, bool in_movetext) {
  std::size_t resume = pos, i = pos;
#if defined(__SSSE3__)
  while (i + 16 <= text.size()) {
    const unsigned loud = bytes_in_set(text.data() + i, LOUD_SET);
    const unsigned blanks = bytes_in_set(text.data() + i, BLANK_SET);
    if (!loud) {
      if (blanks) resume = i + std::size_t(std::bit_width(blanks));  // (one past the last)
      i += 16;
      continue;
    }
    const std::size_t first_loud = i + std::size_t(std::countr_zero(loud));
    if (in_movetext && text[first_loud] == '{') {
      const std::size_t close = find_byte(text, '}', first_loud + 1);
      if (close == std::string_view::npos) return first_loud;
      i = resume = close + 1;
      continue;
    }
    const unsigned quiet_blanks = blanks & ((1u << (first_loud - i)) - 1);
    if (quiet_blanks) resume = i + std::size_t(std::bit_width(quiet_blanks));
    return resume;
  }
#endif
  for (; i < text.size() && QUIET[std::uint8_t(text[i])]; ++i)
    if (is_space(text[i])) resume = i + 1;
  return resume;
}

// The usual tag, `[Name "value"]` on one line, from its '[': one past its ']', or npos for
// any other text (then read token by token). Stepping over it whole is what its tokens
// would do: the name is a symbol, the value a string, and neither ends a game. One step a
// tag, rather than a step a token through the token switch, whose every turn in the tag
// section the predictor missed.
std::size_t whole_tag_end(std::string_view text, std::size_t open) {
  std::size_t i = open + 1;
  if (i >= text.size() || !is_alnum(text[i])) return std::string_view::npos;
  i = pgn_chars::symbol_end(text, i);
  while (i < text.size() && text[i] == ' ') ++i;
  if (i >= text.size() || text[i] != '"') return std::string_view::npos;
  i = pgn_chars::string_close(text, i + 1);
  if (i == std::string_view::npos) return i;
  for (++i; i < text.size() && text[i] == ' ';) ++i;
  return i < text.size() && text[i] == ']' ? i + 1 : std::string_view::npos;
}

}  // namespace

GameExtent find_game_end(std::string_view text, bool at_eof) {
  const std::size_t size = text.size();
  bool in_tag = false, in_movetext = false, has_content = false;
  int depth = 0;
  std::size_t pos = 0;
  for (;;) {
    // Blanks, and escape lines: '%' first on a line (the text's start counts as one).
    while (pos < size) {
      const char ch = text[pos];
      if (is_space(ch)) {
        ++pos;
      } else if (ch == '%' && (pos == 0 || text[pos - 1] == '\n')) {
        const std::size_t eol = text.find('\n', pos);
        pos = eol == std::string_view::npos ? size : eol + 1;
      } else {
        break;
      }
    }
    if (pos >= size) return {size, at_eof, has_content};
    if (!in_tag) {  // whole movetext tokens that change nothing but these two flags
      if (const std::size_t resume = after_quiet_tokens(text, pos, in_movetext); resume > pos) {
        in_movetext = has_content = true;
        pos = resume;
        continue;
      }
    }
    const std::size_t begin = pos;
    const char ch = text[begin];
    // A token that may run past the text is incomplete until the input ends.
    const auto runs_out = [&](std::size_t end) { return end == size && !at_eof; };
    std::size_t end = begin + 1;
    bool result = false;
    if (is_alnum(ch)) {  // a symbol (move numbers and moves: most tokens), tested first
      end = pgn_chars::symbol_end(text, end);
      if (runs_out(end)) return {size, at_eof, has_content};
      result = (ch == '0' || ch == '1') && is_result_symbol(text.substr(begin, end - begin));
    } else {
      switch (ch) {
        case '.': break;  // (a period after a move number)
        case '[':
          if (in_movetext && depth == 0) return {begin, true, true};
          has_content = true;
          if (const std::size_t tag_end = whole_tag_end(text, begin); tag_end != std::string_view::npos) {
            in_tag = false;  // (as its ']' leaves it, even after an unclosed '[')
            pos = tag_end;
            continue;
          }
          in_tag = true;
          pos = begin + 1;
          continue;
        case ']':
          in_tag = false;
          pos = begin + 1;
          continue;
        case '(':
          ++depth;
          in_movetext = has_content = true;
          pos = begin + 1;
          continue;
        case ')':
          if (depth > 0) --depth;
          pos = begin + 1;
          continue;
        case '{': {
          const std::size_t close = find_byte(text, '}', begin);
          if (close == std::string_view::npos) return {size, at_eof, has_content};
          pos = close + 1;
          continue;
        }
        case ';': {
          const std::size_t eol = text.find('\n', begin);
          if (eol == std::string_view::npos && !at_eof) return {size, at_eof, has_content};
          pos = eol == std::string_view::npos ? size : eol;
          continue;
        }
        case '"':
          end = pgn_chars::string_close(text, begin + 1);
          if (end == std::string_view::npos) return {size, at_eof, has_content};
          ++end;
          break;
        case '*': result = true; break;
        case '$':
          while (end < size && is_digit(text[end])) ++end;
          if (runs_out(end)) return {size, at_eof, has_content};
          break;
        case '!':
        case '?':
          while (end < size && (text[end] == '!' || text[end] == '?')) ++end;
          if (runs_out(end)) return {size, at_eof, has_content};
          break;
        case '-':
          if (begin + 1 < size && text[begin + 1] == '-') {
            end = begin + 2;
            if (runs_out(end)) return {size, at_eof, has_content};
          } else if (runs_out(begin + 1)) {
            return {size, at_eof, has_content};
          }
          break;
        default: break;
      }
    }
    // Every other token is movetext outside a tag; a marker outside variations ends the game.
    pos = end;
    if (in_tag) continue;
    if (depth == 0 && result) return {end, true, true};
    in_movetext = has_content = true;
  }
}

}  // namespace perftkit
