#include "enginediff/divide_line.hpp"

#include <cctype>

namespace perftkit {
namespace {

char lower(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

bool is_square(std::string_view text) {
  return text.size() >= 2 && lower(text[0]) >= 'a' && lower(text[0]) <= 'h' && text[1] >= '1' && text[1] <= '8';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

}  // namespace

bool starts_with_move(std::string_view line) {
  line = trim(line);
  return line.size() >= 4 && is_square(line) && is_square(line.substr(2));
}

std::optional<DivideLine> parse_divide_line(std::string_view line) {
  line = trim(line);
  if (!starts_with_move(line)) return std::nullopt;
  DivideLine result;
  std::size_t at = 4;
  if (at < line.size() && std::string_view("qrbnQRBN").find(line[at]) != std::string_view::npos) ++at;
  for (std::size_t i = 0; i < at; ++i) result.move += lower(line[i]);
  std::string_view rest = line.substr(at);
  const std::size_t before = rest.size();
  rest = trim(rest);
  bool separated = rest.size() < before;  // whitespace alone separates
  if (!rest.empty() && (rest.front() == ':' || rest.front() == '-')) {
    rest = trim(rest.substr(1));
    separated = true;
  }
  if (!separated || rest.empty()) return std::nullopt;
  const std::optional<u128> count = parse_u128(rest);
  if (!count) return std::nullopt;
  result.count = *count;
  return result;
}

bool looks_like_other_notation(std::string_view line) {
  line = trim(line);
  if (starts_with_move(line)) return false;
  std::size_t end = 0;
  while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) ||
                               std::string_view("+#=x-").find(line[end]) != std::string_view::npos))
    ++end;
  std::string_view token = line.substr(0, end);
  if (!token.empty() && token.back() == '-') token.remove_suffix(1);  // "Nf3-20": the separator
  if (token.size() < 2 || token.size() > 7) return false;
  bool has_digit = false;
  for (const char c : token) has_digit = has_digit || std::isdigit(static_cast<unsigned char>(c));
  if (!has_digit && token.rfind("O-O", 0) != 0 && token.rfind("0-0", 0) != 0) return false;
  std::string_view rest = trim(line.substr(token.size()));
  if (!rest.empty() && (rest.front() == ':' || rest.front() == '-')) rest = trim(rest.substr(1));
  return !rest.empty() && parse_u128(rest).has_value();
}

}  // namespace perftkit
