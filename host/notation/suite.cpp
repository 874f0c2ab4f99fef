// Perft suite reader: EPD lines with `;Dn count` operations and `id`/`epd`/`perft` blocks.
#include "notation/suite.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

#include "common/text_lines.hpp"
#include "notation/quoted_text.hpp"

namespace perftkit {
namespace {

// s with every run of blanks replaced by one space (e.g. the doubled space before "0 1").
std::string collapse_blanks(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : trim_blanks(s)) {
    if (!is_blank(c)) out += c;
    else if (out.back() != ' ') out += ' ';
  }
  return out;
}

// The first blank-separated word of s and the trimmed rest.
std::pair<std::string_view, std::string_view> split_word(std::string_view s) {
  s = trim_blanks(s);
  std::size_t end = 0;
  while (end < s.size() && !is_blank(s[end])) ++end;
  return {s.substr(0, end), trim_blanks(s.substr(end))};
}

// A depth written in decimal, 0..SUITE_MAX_DEPTH; nullopt otherwise.
std::optional<int> parse_depth(std::string_view text) {
  if (text.empty() || text.size() > 2) return std::nullopt;
  int depth = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    depth = depth * 10 + (c - '0');
  }
  if (depth > SUITE_MAX_DEPTH) return std::nullopt;
  return depth;
}

constexpr std::size_t BINARY_CHECK_BYTES = 4096;  // where a NUL byte makes a file binary

// The offset of the first NUL byte of text that does not end its line (only NUL bytes, or
// none, then a line end or the end of text), if any.
std::optional<std::size_t> inner_nul(std::string_view text) {
  for (std::size_t at = text.find('\0'); at != std::string_view::npos; at = text.find('\0', at)) {
    const std::size_t after = text.find_first_not_of('\0', at);
    if (after != std::string_view::npos && text[after] != '\n' && text[after] != '\r') return at;
    if (after == std::string_view::npos) break;
    at = after;
  }
  return std::nullopt;
}

class SuiteParser {
 public:
  explicit SuiteParser(std::string_view file) : file_(file) {}

  void line(std::string_view raw, std::size_t number) {
    const std::string_view text = trim_blanks(raw);
    if (text.empty() || text.front() == '#') return;
    const auto [word, rest] = split_word(text);
    if (word == "id") return id_line(rest, number);
    if (word == "epd") return epd_line(rest, number);
    if (word == "perft") return perft_line(rest, number);
    fen_line(text, number);
  }

  Suite finish() {
    flush_block();
    flush_pending_id();
    return std::move(suite_);
  }

 private:
  std::string source(std::size_t number) const { return file_ + ":" + std::to_string(number); }

  void error(std::size_t number, std::string reason) {
    suite_.errors.push_back({source(number), number, std::move(reason)});
  }

  // Reports an error and returns false.
  bool fail(std::size_t number, std::string reason) {
    error(number, std::move(reason));
    return false;
  }

  // Adds (depth, count) to c unless the depth is already listed; false and an error then.
  bool add_expected(SuiteCase& c, int depth, u128 nodes, std::size_t number) {
    for (const ExpectedCount& e : c.expected) {
      if (e.depth == depth) {
        return fail(number, "depth " + std::to_string(depth) + " is listed twice");
      }
    }
    c.expected.push_back({depth, nodes});
    return true;
  }

  // A block ends at the next `id`, `epd`, FEN line or the end of the text; it needs a perft line.
  void flush_block() {
    if (!block_) return;
    if (block_->expected.empty())
      suite_.errors.push_back({block_->source, block_->line, "epd line has no perft lines after it"});
    else suite_.cases.push_back(std::move(*block_));
    block_.reset();
  }

  void flush_pending_id() {
    if (!pending_id_) return;
    error(pending_id_->second, "id " + quoted_text(pending_id_->first) + " has no epd line after it");
    pending_id_.reset();
  }

  // The name of the case that starts on line `number`: a preceding `id`, else "file:line".
  std::string take_name(std::size_t number) {
    std::string name = pending_id_ ? std::move(pending_id_->first) : source(number);
    pending_id_.reset();
    return name;
  }

  void id_line(std::string_view rest, std::size_t number) {
    flush_block();
    flush_pending_id();
    if (rest.empty()) return error(number, "id line without a name");
    pending_id_.emplace(std::string(rest), number);
  }

  void epd_line(std::string_view rest, std::size_t number) {
    flush_block();
    if (rest.empty()) {
      take_name(number);
      return error(number, "epd line without a position");
    }
    block_.emplace();
    block_->name = take_name(number);
    block_->fen = collapse_blanks(rest);
    block_->source = source(number);
    block_->line = number;
    block_->from_epd_line = true;
  }

  // `perft D N`: one expected count of the current block.
  void perft_line(std::string_view rest, std::size_t number) {
    if (!block_) return error(number, "perft line without an epd line before it");
    const auto [depth_text, tail] = split_word(rest);
    const auto [count_text, extra] = split_word(tail);
    const std::optional<int> depth = parse_depth(depth_text);
    if (!depth) return error(number, "bad depth " + quoted_text(depth_text) + " (expected 'perft DEPTH COUNT')");
    const std::optional<u128> count = parse_u128(count_text);
    if (!count) return error(number, "bad count " + quoted_text(count_text) + " (expected 'perft DEPTH COUNT')");
    if (!extra.empty()) return error(number, "unexpected " + quoted_text(extra) + " after the count");
    add_expected(*block_, *depth, *count, number);
  }

  // `FEN ;D1 n ;D2 n` or `FEN; D1 n; D2 n`: one case, or one error for the whole line.
  void fen_line(std::string_view text, std::size_t number) {
    flush_block();
    const std::size_t semicolon = text.find(';');
    if (semicolon == std::string_view::npos) {
      take_name(number);
      return error(number, "expected 'FEN ;D1 count ...' or a line starting with id, epd or perft");
    }
    SuiteCase c;
    c.name = take_name(number);
    c.fen = collapse_blanks(text.substr(0, semicolon));
    if (c.fen.empty()) return error(number, "missing FEN before ';'");
    c.source = source(number);
    c.line = number;
    std::string_view ops = text.substr(semicolon + 1);
    while (!ops.empty()) {
      const std::size_t end = std::min(ops.find(';'), ops.size());
      if (!epd_operation(c, trim_blanks(ops.substr(0, end)), number)) return;
      ops.remove_prefix(std::min(end + 1, ops.size()));
    }
    if (c.expected.empty()) return error(number, "no depth counts (expected ';D1 count')");
    suite_.cases.push_back(std::move(c));
  }

  // One `Dn count` (or `id "name"`) operation of an EPD line; false after reporting an error.
  bool epd_operation(SuiteCase& c, std::string_view op, std::size_t number) {
    if (op.empty()) return true;
    const auto [key, value] = split_word(op);
    if (key == "id") {
      std::string_view name = value;
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
      if (name.empty()) return fail(number, "id operation without a name");
      c.name = std::string(name);
      return true;
    }
    if (key.size() < 2 || key.front() != 'D') return fail(number, "unknown operation " + quoted_text(op));
    const std::optional<int> depth = parse_depth(key.substr(1));
    if (!depth) return fail(number, "bad depth in " + quoted_text(op));
    const std::optional<u128> count =
        value.find_first_of(" \t") == std::string_view::npos ? parse_u128(value) : std::nullopt;
    if (!count) return fail(number, "bad count in " + quoted_text(op));
    return add_expected(c, *depth, *count, number);
  }

  std::string file_;
  Suite suite_;
  std::optional<SuiteCase> block_;
  std::optional<std::pair<std::string, std::size_t>> pending_id_;  // name and line of an `id`
};

}  // namespace

Suite parse_suite(std::string_view text, std::string_view file) {
  SuiteParser parser(file);
  TextLines lines(without_byte_order_mark(text));
  for (std::string_view line; lines.next(line);) parser.line(line, lines.number());
  return parser.finish();
}

SuiteFileResult read_suite(const std::filesystem::path& path, std::string_view display_name) {
  const std::string name = display_name.empty() ? path.string() : std::string(display_name);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return {std::nullopt, name + ": is a directory"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {std::nullopt, name + ": cannot open (" + std::strerror(errno) + ")"};
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return {std::nullopt, name + ": read error"};
  // Binary data (an executable, an image, a compressed file) is told by a NUL byte near the
  // start, as classify tells it; NUL bytes that end a line are padding (parse_suite), as
  // some published suites have them.
  const std::string_view text = contents.view();
  if (const std::optional<std::size_t> nul = inner_nul(text.substr(0, std::min(text.size(), BINARY_CHECK_BYTES))))
    return {std::nullopt, name + ": binary data (a NUL byte at byte " + std::to_string(*nul) + "), not a perft suite"};
  return {parse_suite(text, name), {}};
}

}  // namespace perftkit
