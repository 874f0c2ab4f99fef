#include "classify/game_columns.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "notation/pgn_chars.hpp"

namespace perftkit {
namespace {

using pgn_chars::is_digit;

constexpr std::string_view COLUMN_NAMES[] = {"game", "ply", "move", "move_uci", "move_san", "clock", "eval"};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)  // (a loop: memcmp is a call for a few bytes)
    if (text[i] != prefix[i]) return false;
  return true;
}

// The same for a literal prefix: a comparison of constant size, which the compiler makes a
// load or two and no call.
template <std::size_t N>
bool starts_with(std::string_view text, const char (&prefix)[N]) {
  return text.size() >= N - 1 && std::memcmp(text.data(), prefix, N - 1) == 0;
}

// An eval beyond any engine's range, infinity or NaN is no number of centipawns.
constexpr double MAX_PAWNS = 1e6;

// When command (the text after "[%") is `name` followed by a space: its argument, after the
// spaces up to the next space or ']' ("" when neither follows). Otherwise nothing.
std::optional<std::string_view> command_argument(std::string_view command, std::string_view name) {
  if (command.size() <= name.size() || command[name.size()] != ' ' || !starts_with(command, name)) return std::nullopt;
  std::size_t begin = name.size() + 1;
  while (begin < command.size() && command[begin] == ' ') ++begin;
  // (a loop, not find_first_of: that calls memchr once a character)
  std::size_t end = begin;
  while (end < command.size() && command[end] != ' ' && command[end] != ']') ++end;
  return end == command.size() ? std::string_view() : command.substr(begin, end - begin);
}

// A decimal number as std::from_chars reads it (the nearest double). Plain digits with at
// most one point and 15 digits, as clocks and evals are written, are read here: the digits
// as an integer over a power of ten, both exact in a double, and IEEE division rounds to
// nearest, so the result is from_chars's. Anything else is left to from_chars.
std::optional<double> parse_decimal(std::string_view text) {
  std::uint64_t digits = 0;
  int count = 0, decimals = -1;
  bool plain = true;
  for (const char ch : text) {
    if (is_digit(ch)) {
      digits = digits * 10 + std::uint64_t(ch - '0');
      ++count;
      if (decimals >= 0) ++decimals;
    } else if (ch == '.' && decimals < 0) {
      decimals = 0;
    } else {
      plain = false;
      break;
    }
  }
  if (plain && count >= 1 && count <= 15) {
    static constexpr double POWERS[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    return decimals <= 0 ? double(digits) : double(digits) / POWERS[decimals];  // (no division for whole numbers)
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// h:mm:ss or h:mm:ss.f (also m:ss): seconds.
std::optional<double> parse_clock(std::string_view text) {
  double seconds = 0;
  int fields = 0;
  while (!text.empty()) {
    const std::size_t colon = text.find(':');
    const std::optional<double> value = parse_decimal(text.substr(0, colon));
    if (!value || *value < 0) return std::nullopt;
    seconds = seconds * 60 + *value;
    ++fields;
    text = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  }
  if (fields < 2 || fields > 3) return std::nullopt;
  return seconds;
}

// [%eval 0.45] (pawns, White's view) or [%eval #-3] (mate in 3, Black mating).
void read_eval(std::string_view eval, CommentValues& values) {
  if (eval.empty()) return;
  if (eval.front() == '#') {
    int mate = 0;
    const std::string_view digits = eval.substr(eval.size() > 1 && eval[1] == '+' ? 2 : 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), mate);
    if (error == std::errc() && end == digits.data() + digits.size()) values.eval_mate = mate;
  } else {
    // The sign is read here: parse_decimal's fast path takes digits only, and the nearest
    // double of -x is minus the nearest double of x.
    const bool negative = eval.front() == '-';
    const std::string_view magnitude = eval.substr(negative || eval.front() == '+' ? 1 : 0);
    if (magnitude.empty() || magnitude.front() == '-' || magnitude.front() == '+') return;
    if (const std::optional<double> pawns = parse_decimal(magnitude); pawns && *pawns <= MAX_PAWNS)
      values.eval_cp = int(std::lround((negative ? -*pawns : *pawns) * 100));
  }
}

// lichess's h:mm:ss (a one-digit hour) in the eight bytes at s, closed by ' ' or ']': read in
// place, no loop. The seconds, or -1 for any other text (a plain int: an optional written
// through a pointer and read back was a stall of its own).
int lichess_clock_seconds(const char* s) {
  if (!(is_digit(s[0]) && s[1] == ':' && is_digit(s[2]) && is_digit(s[3]) && s[4] == ':' && is_digit(s[5]) &&
        is_digit(s[6]) && (s[7] == ']' || s[7] == ' ')))
    return -1;
  const int minutes = (s[0] - '0') * 60 + (s[2] - '0') * 10 + (s[3] - '0');
  return minutes * 60 + (s[5] - '0') * 10 + (s[6] - '0');
}

bool read_lichess_clock(const char* s, std::optional<double>& seconds) {
  const int whole = lichess_clock_seconds(s);
  if (whole < 0) return false;
  seconds = double(whole);
  return true;
}

// The usual forms in one pass, from the text after "[%clk" or "[%eval": a space, then
// h:mm:ss or m:ss of whole fields, or a decimal with at most two decimals, then ' ' or ']'.
// True with the value read; false for any other text, which the general readers above then
// read (to the same value where both read it: whole clock fields sum exactly in a double, and
// an eval's centipawns are its digits scaled by a power of ten, what rounding pawns * 100
// gives, its error being far below half a centipawn).
bool read_usual_clock(std::string_view rest, std::optional<double>& seconds) {
  std::size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  if (rest.size() - i >= 8 && read_lichess_clock(rest.data() + i, seconds)) return true;
  std::uint64_t whole = 0, field = 0;
  int fields = 1, digits = 0;
  for (; i < rest.size(); ++i) {
    const char ch = rest[i];
    if (is_digit(ch)) {
      if (++digits > 6) return false;
      field = field * 10 + std::uint64_t(ch - '0');
    } else if (ch == ':' && digits > 0 && fields < 3) {
      whole = whole * 60 + field;
      field = 0;
      digits = 0;
      ++fields;
    } else {
      if ((ch != ' ' && ch != ']') || digits == 0 || fields < 2) return false;
      seconds = double(whole * 60 + field);
      return true;
    }
  }
  return false;  // (no end to the argument: the general reader decides)
}

// The usual eval: a sign, one to nine digits, and a point with up to two more, each run of
// digits read by a loop of its own; end is where it stopped, at its ' ' or ']'.
bool read_usual_eval(std::string_view rest, std::optional<int>& centipawns, std::size_t& end) {
  const auto digit_at = [&](std::size_t i) { return i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; };
  std::size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  const bool negative = i < rest.size() && rest[i] == '-';
  if (i < rest.size() && (rest[i] == '-' || rest[i] == '+')) ++i;
  std::uint64_t value = 0;
  const std::size_t whole_begin = i;
  for (; digit_at(i); ++i) value = value * 10 + std::uint64_t(rest[i] - '0');
  if (i == whole_begin || i - whole_begin > 9) return false;
  std::uint64_t scale = 100;  // centipawns per unit of value
  if (i < rest.size() && rest[i] == '.')
    for (++i; scale > 1 && digit_at(i); ++i, scale /= 10) value = value * 10 + std::uint64_t(rest[i] - '0');
  if (i == rest.size() || (rest[i] != ' ' && rest[i] != ']')) return false;
  const std::uint64_t cp = value * scale;
  if (cp > std::uint64_t(MAX_PAWNS) * 100) return false;  // (the general reader refuses it)
  centipawns = negative ? -int(cp) : int(cp);
  end = i;
  return true;
}

// lichess's commonest comment, "{ [%eval E] [%clk h:mm:ss] }" with E as [-]d.dd, read at
// fixed places. Evals are as often negative as not: the sign moves where the digits are read
// rather than take a branch. False, with values untouched, for any other text.
bool read_lichess_eval_and_clock(std::string_view text, CommentValues& values) {
  if (text.size() != 31 && text.size() != 32) return false;
  const bool negative = text[9] == '-';
  const char* const eval = text.data() + 9 + negative;  // d.dd, then "] [%clk h:mm:ss] }"
  if (text.size() != 31 + std::size_t(negative) || !starts_with(text, "{ [%eval ") || !is_digit(eval[0]) ||
      eval[1] != '.' || !is_digit(eval[2]) || !is_digit(eval[3]) || std::memcmp(eval + 4, "] [%clk ", 8) != 0 ||
      std::memcmp(eval + 19, "] }", 3) != 0)
    return false;
  const int clock = lichess_clock_seconds(eval + 12);
  if (clock < 0) return false;
  const int centipawns = (eval[0] - '0') * 100 + (eval[2] - '0') * 10 + (eval[3] - '0');
  values.eval_cp = negative ? -centipawns : centipawns;
  values.clock_seconds = double(clock);
  return true;
}

// lichess writes a move's comment as "{ [%clk h:mm:ss] }" or "{ [%eval E] [%clk h:mm:ss] }",
// E in the usual form: both are read at fixed places, with no search, to what the general
// reader gives them. False, with values untouched, for any other text.
bool read_lichess_comment(std::string_view text, CommentValues& values) {
  if (read_lichess_eval_and_clock(text, values)) return true;
  if (!starts_with(text, "{ [%")) return false;
  std::string_view rest = text.substr(4);
  std::optional<int> eval;
  if (starts_with(rest, "eval ")) {
    std::size_t end = 0;
    if (!read_usual_eval(rest.substr(5), eval, end)) return false;
    rest = rest.substr(5 + end);
    if (!starts_with(rest, "] [%")) return false;
    rest = rest.substr(4);
  }
  // "clk h:mm:ss] }", and nothing after it
  if (rest.size() != 14 || !starts_with(rest, "clk ") || rest.substr(11) != "] }") return false;
  const int clock = lichess_clock_seconds(rest.data() + 4);
  if (clock < 0) return false;
  values.clock_seconds = double(clock);
  values.eval_cp = eval;
  return true;
}

}  // namespace

bool GameColumns::add(std::string_view name) {
  if (name == "game") game = true;
  else if (name == "ply") ply = true;
  else if (name == "move") move_uci = move_san = true;
  else if (name == "move_uci") move_uci = true;
  else if (name == "move_san") move_san = true;
  else if (name == "clock") clock = true;
  else if (name == "eval") eval = true;
  else return false;
  return true;
}

std::string GameColumns::names() {
  std::string text;
  for (const std::string_view name : COLUMN_NAMES) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

bool is_numeric_tag(std::string_view name) { return ends_with(name, "Elo") || ends_with(name, "RatingDiff"); }

CommentValues read_comment_values(std::string_view comments) {
  CommentValues values;
  read_comment_values(comments, values);
  return values;
}

void read_comment_values(std::string_view comments, CommentValues& values) {
  // One pass over the commands; the first [%clk ] and the first [%eval ] count, even when
  // their argument does not read.
  // (memchr to each '[': string_view::find("[%") steps byte by byte in libstdc++ 12)
  values = CommentValues{};
  if (read_lichess_comment(comments, values)) return;
  bool clock_seen = false, eval_seen = false;
  const char* const end = comments.data() + comments.size();
  // (at != end first: an empty view may hold a null pointer, which memchr must not get)
  for (const char* at = comments.data(); at != end && !(clock_seen && eval_seen);) {
    at = static_cast<const char*>(std::memchr(at, '[', std::size_t(end - at)));
    if (!at || ++at == end) break;
    if (*at != '%') continue;
    const std::string_view command(at + 1, std::size_t(end - at - 1));
    if (!clock_seen && starts_with(command, "clk ") && read_usual_clock(command.substr(4), values.clock_seconds)) {
      clock_seen = true;
    } else if (std::size_t stopped = 0; !eval_seen && starts_with(command, "eval ") &&
                                        read_usual_eval(command.substr(5), values.eval_cp, stopped)) {
      eval_seen = true;
    } else if (const std::optional<std::string_view> clock =
                   clock_seen ? std::nullopt : command_argument(command, "clk")) {
      clock_seen = true;
      if (!clock->empty()) values.clock_seconds = parse_clock(*clock);
    } else if (const std::optional<std::string_view> eval =
                   eval_seen ? std::nullopt : command_argument(command, "eval")) {
      eval_seen = true;
      read_eval(*eval, values);
    }
  }
}

}  // namespace perftkit
