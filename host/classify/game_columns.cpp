#include "classify/game_columns.hpp"

#include <charconv>
#include <cmath>

namespace perftkit {
namespace {

constexpr std::string_view COLUMN_NAMES[] = {"game", "ply", "move", "move_uci", "move_san", "clock", "eval"};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The argument of "[%name ARG]" in comments, or "".
std::string_view command_argument(std::string_view comments, std::string_view name) {
  std::size_t at = comments.find("[%");
  while (at != std::string_view::npos &&
         !(comments.substr(at + 2, name.size()) == name && at + 2 + name.size() < comments.size() &&
           comments[at + 2 + name.size()] == ' '))
    at = comments.find("[%", at + 2);
  if (at == std::string_view::npos) return {};
  std::size_t begin = at + 2 + name.size() + 1;
  while (begin < comments.size() && comments[begin] == ' ') ++begin;
  const std::size_t end = comments.find_first_of(" ]", begin);
  return end == std::string_view::npos ? std::string_view() : comments.substr(begin, end - begin);
}

// h:mm:ss or h:mm:ss.f (also m:ss): seconds.
std::optional<double> parse_clock(std::string_view text) {
  double seconds = 0;
  int fields = 0;
  while (!text.empty()) {
    const std::size_t colon = text.find(':');
    const std::string_view field = text.substr(0, colon);
    double value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc() || end != field.data() + field.size() || value < 0) return std::nullopt;
    seconds = seconds * 60 + value;
    ++fields;
    text = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  }
  if (fields < 2 || fields > 3) return std::nullopt;
  return seconds;
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
  if (comments.find("[%") == std::string_view::npos) return values;
  if (const std::string_view clock = command_argument(comments, "clk"); !clock.empty())
    values.clock_seconds = parse_clock(clock);
  const std::string_view eval = command_argument(comments, "eval");
  if (eval.empty()) return values;
  if (eval.front() == '#') {
    int mate = 0;
    const std::string_view digits = eval.substr(eval.size() > 1 && eval[1] == '+' ? 2 : 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), mate);
    if (error == std::errc() && end == digits.data() + digits.size()) values.eval_mate = mate;
  } else {
    double pawns = 0;
    const std::string_view number = eval.substr(eval.front() == '+' ? 1 : 0);
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), pawns);
    if (error == std::errc() && end == number.data() + number.size()) values.eval_cp = int(std::lround(pawns * 100));
  }
  return values;
}

}  // namespace perftkit
