// Splitting FEN and EPD lines into the position and the id, eight bytes at a time.
#include "classify/position_line.hpp"
#include "common/blank_bytes.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace perftkit {
namespace {

// Where the first tokens of a line begin and end (byte offsets), found eight bytes at a time.
// Offsets rather than string_views: the caller builds its views once, in registers (reading
// back views just stored half by half stalls store forwarding).
template <std::size_t N>
struct TokenSpans {
  std::size_t count = 0;
  std::size_t begin[N], end[N];
};

template <std::size_t N>
TokenSpans<N> leading_tokens(std::string_view line) {
  TokenSpans<N> t;
  std::size_t start = 0;
  for (std::size_t at = 0; at < line.size(); at += 8) {
    std::uint64_t word = 0;  // bytes past the end read as NUL, a blank: they end the last token
    if (line.size() - at >= 8) {
      std::memcpy(&word, line.data() + at, 8);
    } else {
      for (std::size_t i = at; i < line.size(); ++i) word |= std::uint64_t(std::uint8_t(line[i])) << (8 * (i - at));
    }
    for (std::uint64_t blanks = blank_bytes(word); blanks; blanks &= blanks - 1) {
      const std::size_t blank = at + (std::size_t(std::countr_zero(blanks)) >> 3);
      if (blank > start) {
        t.begin[t.count] = start;
        t.end[t.count] = blank;
        if (++t.count == N) return t;
      }
      start = blank + 1;
    }
  }
  if (start < line.size()) {
    t.begin[t.count] = start;
    t.end[t.count++] = line.size();
  }
  return t;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

// A number, signed or not ("12", "-1"), is read as a clock, so that a bad clock is reported by
// the parser rather than taken for an id; anything else ("1a2b3c4d") starts the id.
bool clock_like(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  if (text.empty()) return false;
  for (const char ch : text)
    if (!is_digit(ch)) return false;
  return true;
}

bool is_id_separator(char ch) { return ch == ',' || ch == ';' || ch == '|'; }

// The length of the clock a token starts with: a number, signed or not, that is the whole
// token or is followed by an id separator ("20,id1": 2); 0 when the token is no clock.
std::size_t clock_prefix(std::string_view token) {
  std::size_t end = 0;
  while (end < token.size() && !is_id_separator(token[end])) ++end;
  return clock_like(token.substr(0, end)) ? end : 0;
}

// The operand of an EPD "id" operation (quotes removed), or empty when there is none.
std::string_view epd_id(std::string_view operations) {
  while (!operations.empty()) {
    std::size_t end = 0;
    for (bool in_string = false; end < operations.size() && (in_string || operations[end] != ';'); ++end)
      if (operations[end] == '"') in_string = !in_string;
    std::string_view operation = trim(operations.substr(0, end));
    operations.remove_prefix(end < operations.size() ? end + 1 : end);
    if (operation.size() > 2 && operation.substr(0, 2) == "id" && is_blank(operation[2])) {
      operation = trim(operation.substr(3));
      if (operation.size() >= 2 && operation.front() == '"' && operation.back() == '"')
        operation = operation.substr(1, operation.size() - 2);
      return operation;
    }
  }
  return {};
}

}  // namespace

PositionLine split_position_line(std::string_view line) {
  PositionLine out;
  const TokenSpans<6> t = leading_tokens<6>(line);
  if (t.count == 0 || line[t.begin[0]] == '#') return out;
  out.blank = false;
  const std::size_t begin = t.begin[0];
  const auto token = [&](std::size_t i) { return line.substr(t.begin[i], t.end[i] - t.begin[i]); };
  std::size_t fields = token(0) == "startpos" ? 1 : std::min<std::size_t>(t.count, 4);
  const bool clocks_follow = fields == 4 && t.count > 4 && clock_prefix(token(4));
  if (fields == 4 && !clocks_follow && line.find(';', t.begin[3]) != std::string_view::npos) {
    // EPD: the position fields end at the first ';', the operations follow.
    std::size_t last_end = t.end[3];
    for (std::size_t i = 0; i < 4; ++i) {
      const std::string_view field = token(i).substr(0, token(i).find(';'));
      out.fields[i] = field;
      last_end = t.begin[i] + field.size();
    }
    out.field_count = 4;
    out.epd = true;
    out.shown = line.substr(begin, last_end - begin);
    out.position = line.substr(begin);
    const std::string_view operations = line.substr(std::min(line.size(), last_end + 1));
    const std::string_view id = epd_id(operations);
    out.id = id.empty() ? trim(operations) : id;
    return out;
  }
  // Up to two clock numbers belong to a FEN; whatever follows is the id, after a separator
  // stuck to the last clock if there is one ("5 20,id1", "5 20; comment").
  for (std::size_t i = 0; i < fields; ++i) out.fields[i] = token(i);
  std::size_t fields_end = t.end[fields - 1], id_begin = fields_end;
  while (fields >= 4 && fields < t.count && fields < 6) {
    const std::size_t clock = clock_prefix(token(fields));
    if (!clock) break;
    out.fields[fields] = token(fields).substr(0, clock);
    fields_end = t.begin[fields] + clock;
    id_begin = clock < token(fields).size() ? fields_end + 1 : t.end[fields];
    ++fields;
    if (id_begin == fields_end + 1) break;
  }
  out.field_count = fields;
  const std::string_view position = line.substr(begin, fields_end - begin);
  out.position = position;
  out.shown = position;
  out.id = trim(line.substr(id_begin));
  if (fields > 4 && !out.id.empty() && is_id_separator(out.id.front())) out.id = trim(out.id.substr(1));
  return out;
}

}  // namespace perftkit
