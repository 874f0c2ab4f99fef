// Row formatting without iostreams or allocations: every field is written through a raw
// pointer into space reserved in advance (a bound on the row's size).
#include "classify/format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <string>

#include "classify/table_source.hpp"
#include "common/json_string.hpp"
#include "common/decimal_text.hpp"
#include "notation/fen.hpp"
#include "perftkit/config.hpp"

namespace perftkit {
namespace {

// Copies text to p (which has room to spare) without a call: in fixed-size pieces, the last
// one overlapping the one before it (a loop of single bytes would become a library call).
PERFTKIT_FORCEINLINE char* put(char* p, std::string_view text) {
  const std::size_t n = text.size();
  const char* s = text.data();
  if (n >= 16) {
    for (std::size_t i = 0; i + 16 < n; i += 16) std::memcpy(p + i, s + i, 16);
    std::memcpy(p + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(p, s, 8);
    std::memcpy(p + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(p, s, 4);
    std::memcpy(p + n - 4, s + n - 4, 4);
  } else if (n > 0) {
    p[0] = s[0];
    p[n / 2] = s[n / 2];
    p[n - 1] = s[n - 1];
  }
  return p + n;
}

// Control bytes other than tab and line breaks (and DEL) never reach a CSV or TSV row: a
// rejected line's text may hold any byte, and readers such as Python's csv module choke on
// them. They are written as the four characters \xNN.
bool is_control_byte(char ch) {
  const auto c = static_cast<std::uint8_t>(ch);
  return (c < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || c == 0x7F;
}

char* put_escaped_control(char* p, char ch) {
  static constexpr char HEX[] = "0123456789abcdef";
  const auto c = static_cast<std::uint8_t>(ch);
  *p++ = '\\';
  *p++ = 'x';
  *p++ = HEX[c >> 4];
  *p++ = HEX[c & 15];
  return p;
}

// True when text holds a byte that a CSV field cannot carry as it is: a comma, quote or line
// break (quoting), or a control byte (escaping). Eight bytes at a time: an exact zero-byte
// test per sought byte, and a below-0x20 test (tab sets it too; the slow path sorts it out).
bool needs_csv_care(std::string_view text) {
  constexpr std::uint64_t ONES = 0x0101010101010101ULL, HIGHS = 0x8080808080808080ULL, LOWS = ~HIGHS;
  const auto zero = [](std::uint64_t x) { return ~(((x & LOWS) + LOWS) | x) & HIGHS; };
  const auto below = [](std::uint64_t x, std::uint64_t n) { return (x - n * ONES) & ~x & HIGHS; };
  for (std::size_t at = 0; at < text.size(); at += 8) {
    std::uint64_t word = 0;
    const std::size_t n = std::min<std::size_t>(8, text.size() - at);
    for (std::size_t i = 0; i < n; ++i) word |= std::uint64_t(std::uint8_t(text[at + i])) << (8 * i);
    word |= n < 8 ? ~std::uint64_t(0) << (8 * n) : 0;  // pad with 0xFF, which is none of them
    if (zero(word ^ (',' * ONES)) | zero(word ^ ('"' * ONES)) | below(word, 0x20) | zero(word ^ (0x7F * ONES)))
      return true;
  }
  return false;
}

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; control
// bytes are escaped.
char* put_csv_text(char* p, std::string_view text) {
  if (!needs_csv_care(text)) return put(p, text);
  const bool quoted = text.find_first_of(",\"\n\r") != std::string_view::npos;
  if (quoted) *p++ = '"';
  for (const char ch : text) {
    if (is_control_byte(ch)) {
      p = put_escaped_control(p, ch);
      continue;
    }
    if (ch == '"') *p++ = '"';
    *p++ = ch;
  }
  if (quoted) *p++ = '"';
  return p;
}

// TSV has no quoting: tabs and line breaks inside a field become spaces, control bytes are
// escaped.
char* put_tsv_text(char* p, std::string_view text) {
  for (const char ch : text) {
    if (is_control_byte(ch)) p = put_escaped_control(p, ch);
    else *p++ = (ch == '\t' || ch == '\n' || ch == '\r') ? ' ' : ch;
  }
  return p;
}

// Flags: FEN warnings by their warning_names(), then "chess960"; joined by sep. Rows with a
// flag are rare, so the names' allocation is off the common path.
template <typename PutName>
char* put_flags(char* p, const ClassifyRow& row, char sep, PutName put_name) {
  bool first = true;
  const auto one = [&](std::string_view name) {
    if (!first) *p++ = sep;
    first = false;
    p = put_name(p, name);
  };
  if (row.warnings)
    for (const std::string& name : warning_names(row.warnings)) one(name);
  if (row.chess960) one("chess960");
  return p;
}

// Field-by-field writer for one format: separators, keys (JSON), and values. A row's first
// field is begun with begin_row(), every other one with begin() (which row a field is the
// first of is known where it is written, so no flag is kept and tested field by field).
template <RowFormat F>
struct FieldWriter {
  char* p;

  void begin_row(std::string_view key) {
    if constexpr (F == RowFormat::JSONL) {
      *p++ = '{';
      put_key(key);
    }
  }
  void begin(std::string_view key) {
    if constexpr (F == RowFormat::JSONL) {
      *p++ = ',';
      put_key(key);
    } else {
      *p++ = F == RowFormat::CSV ? ',' : '\t';
    }
  }
  void put_key(std::string_view key) {
    *p++ = '"';
    p = put(p, key);
    *p++ = '"';
    *p++ = ':';
  }
  void text(std::string_view key, std::string_view value, bool plain = false) {
    begin(key);
    if constexpr (F == RowFormat::JSONL) {
      if (plain) {
        *p++ = '"';
        p = put(p, value);
        *p++ = '"';
      } else {
        p = put_json_string(p, value);
      }
    } else if (plain) {
      p = put(p, value);
    } else {
      p = F == RowFormat::CSV ? put_csv_text(p, value) : put_tsv_text(p, value);
    }
  }
  // A text that is empty when absent: null in JSON.
  void optional_text(std::string_view key, std::string_view value) {
    if (value.empty()) none(key);
    else text(key, value);
  }
  // A move in SAN or UCI: PGN symbol characters, which no format quotes or escapes.
  void optional_move(std::string_view key, std::string_view move) {
    if (move.empty()) none(key);
    else text(key, move, true);
  }
  void none(std::string_view key) {
    begin(key);
    if constexpr (F == RowFormat::JSONL) p = put(p, "null");
  }
  void boolean(std::string_view key, bool value) {
    begin(key);
    if constexpr (F == RowFormat::JSONL) p = put(p, value ? "true" : "false");
    else *p++ = value ? '1' : '0';
  }
  void number(std::string_view key, std::uint64_t value) {
    begin(key);
    p = write_decimal_in_room(p, value);
  }
  void flags(const ClassifyRow& row) {
    begin("flags");
    const bool any = row.warnings || row.chess960;  // (rare: only they take the call)
    if constexpr (F == RowFormat::JSONL) {
      *p++ = '[';
      if (any) p = put_flags(p, row, ',', [](char* q, std::string_view name) { return put_json_string(q, name); });
      *p++ = ']';
    } else if (any) {
      p = put_flags(p, row, '|', put);
    }
  }
  void signed_number(std::string_view key, long long value) {
    begin(key);
    *p = '-';  // kept by a negative number (an eval's sign is anyone's guess: no branch on it)
    p += value < 0;
    p = write_decimal_in_room(p, value < 0 ? std::uint64_t(-value) : std::uint64_t(value));
  }
  // Seconds with up to one decimal (clocks are given in tenths at most).
  void seconds(std::string_view key, double value) {
    begin(key);
    const std::uint64_t tenths = std::uint64_t(value * 10 + 0.5);
    p = write_decimal_in_room(p, tenths / 10);
    if (tenths % 10) {
      *p++ = '.';
      *p++ = char('0' + tenths % 10);
    }
  }
  // JSON text written as it is (an object), or as a text field in CSV/TSV.
  void json_value(std::string_view key, std::string_view json) {
    if constexpr (F == RowFormat::JSONL) {
      begin(key);
      p = put(p, json.empty() ? std::string_view("null") : json);
    } else {
      optional_text(key, json);
    }
  }
  void end() {
    if constexpr (F == RowFormat::JSONL) *p++ = '}';
    *p++ = '\n';
  }
};

// The --tags columns, values in the order of columns.tags: a rating is a number ("+12" too;
// anything else, such as "?", is null), any other tag is text. (Writers go by value, here and
// below: a writer whose address is taken lives in memory, and every byte written through its
// pointer, which may alias it, makes the compiler store and reload the pointer.)
template <RowFormat F>
FieldWriter<F> write_tag_columns(FieldWriter<F> w, const GameColumns& columns, const std::string_view* values,
                                 std::size_t count) {
  for (std::size_t i = 0; i < columns.tags.size(); ++i) {
    const std::string_view name = columns.tags[i];
    const std::string_view value = i < count ? values[i] : std::string_view();
    if (is_numeric_tag(name) && !value.empty()) {
      long long number = 0;
      const char* begin = value.data() + (value[0] == '+');
      const auto [end, error] = std::from_chars(begin, value.data() + value.size(), number);
      if (error == std::errc() && end == value.data() + value.size()) w.signed_number(name, number);
      else w.none(name);
    } else {
      w.optional_text(name, value);
    }
  }
  return w;
}

// The --tags columns as they follow other columns in a row (each with its separator).
template <RowFormat F>
char* write_tags_after_columns(char* p, const GameColumns& columns, const std::string_view* values, std::size_t count) {
  return write_tag_columns(FieldWriter<F>{p}, columns, values, count).p;
}

// The game columns (GameColumns), after the classification's. A tag column holds text, or a
// number for ratings; what a row lacks is empty (null in JSON).
template <RowFormat F>
FieldWriter<F> write_game_columns(FieldWriter<F> w, const ClassifyRow& row, const GameColumns& columns) {
  if (columns.game) {
    if (row.from_pgn) w.number("game", row.game);
    else w.none("game");
  }
  if (columns.ply) {
    if (row.from_pgn) w.number("ply", row.ply);
    else w.none("ply");
  }
  if (columns.move_uci) w.optional_move("move_uci", row.move_uci);
  if (columns.move_san) w.optional_move("move_san", row.move_san);
  if (columns.clock) {
    if (row.has_clock) w.seconds("clock", row.clock_seconds);
    else w.none("clock");
  }
  if (columns.eval) {
    if (row.has_eval_cp) w.signed_number("eval_cp", row.eval_cp);
    else w.none("eval_cp");
    if (row.has_eval_mate) w.signed_number("eval_mate", row.eval_mate);
    else w.none("eval_mate");
  }
  if (row.has_tag_columns) {
    w.p = put(w.p, row.tag_columns);
  } else {
    w = write_tag_columns(w, columns, nullptr, 0);  // (a row without a game: every tag absent)
  }
  if (columns.all_tags) w.json_value("tags", row.all_tags_json);
  for (std::size_t i = 0; i < columns.kept.size(); ++i) {
    const std::string_view value = i < row.kept_count ? row.kept_values[i] : std::string_view();
    if (!row.kept_json) {
      w.optional_text(columns.kept[i], value);
    } else if constexpr (F == RowFormat::JSONL) {
      w.json_value(columns.kept[i], value);
    } else if (value.size() >= 2 && value.front() == '"') {
      if (value.find('\\') == std::string_view::npos)
        w.optional_text(columns.kept[i], value.substr(1, value.size() - 2));
      else w.optional_text(columns.kept[i], json_string_text(value));  // a JSON string: its text
    } else {
      w.optional_text(columns.kept[i], value);  // numbers, objects, arrays: their JSON
    }
  }
  return w;
}

// source_open and source_close: the escaped file name, as an open field, and what closes it.
template <RowFormat F>
char* write_row(char* p, std::string_view source_open, std::string_view source_close, const ClassifyRow& row,
                const GameColumns& columns) {
  FieldWriter<F> w{p};
  // The source: "file:line", or "file:game G:ply P" for a position of a PGN game.
  w.begin_row("source");
  w.p = put(w.p, source_open);
  if (row.from_pgn) {
    w.p = write_decimal_in_room(put(w.p, ":game "), row.game);
    w.p = write_decimal_in_room(put(w.p, ":ply "), row.ply);
  } else {
    *w.p++ = ':';
    w.p = write_decimal_in_room(w.p, row.line);
  }
  w.p = put(w.p, source_close);
  w.text("fen", row.fen, row.fen_plain);
  w.optional_text("id", row.id);
  w.boolean("valid", row.valid);
  w.optional_text("error", row.error);
  if (!row.valid) {
    for (const std::string_view key :
         {"legal_moves", "in_check", "checkers", "checkmate", "stalemate", "insufficient_white", "insufficient_black",
          "dead_by_material", "fifty_move", "seventyfive_move", "repetitions", "outcome", "winner"})
      w.none(key);
    w.flags(row);
    if (columns.any()) w = write_game_columns(w, row, columns);
    w.end();
    return w.p;
  }
  const Classification& c = row.cls;
  w.number("legal_moves", c.legal_moves);
  w.boolean("in_check", c.in_check);
  w.number("checkers", c.checkers);
  w.boolean("checkmate", c.checkmate);
  w.boolean("stalemate", c.stalemate);
  w.boolean("insufficient_white", c.insufficient_white);
  w.boolean("insufficient_black", c.insufficient_black);
  w.boolean("dead_by_material", c.dead_by_material());
  w.boolean("fifty_move", c.fifty_move);
  w.boolean("seventyfive_move", c.seventyfive_move);
  if (row.has_history) w.number("repetitions", c.repetitions);
  else w.none("repetitions");
  w.optional_text("outcome", termination_name(c.termination));
  w.optional_text("winner", winner_name(c));
  w.flags(row);
  if (columns.any()) w = write_game_columns(w, row, columns);
  w.end();
  return w.p;
}

}  // namespace

std::string_view termination_name(Termination t) {
  switch (t) {
    case Termination::CHECKMATE: return "checkmate";
    case Termination::INSUFFICIENT_MATERIAL: return "insufficient_material";
    case Termination::STALEMATE: return "stalemate";
    case Termination::SEVENTYFIVE_MOVES: return "seventyfive_moves";
    case Termination::FIVEFOLD_REPETITION: return "fivefold_repetition";
    case Termination::FIFTY_MOVES: return "fifty_moves";
    case Termination::THREEFOLD_REPETITION: return "threefold_repetition";
    default: return "";
  }
}

std::string_view winner_name(const Classification& c) {
  if (c.termination == Termination::NONE) return "";
  if (c.winner == Winner::WHITE_WINS) return "white";
  if (c.winner == Winner::BLACK_WINS) return "black";
  return "draw";
}

RowFormatter::RowFormatter(RowFormat format, std::string_view source_name, GameColumns columns)
    : format_(format), columns_(std::move(columns)) {
  std::string escaped(6 * source_name.size() + 2, '\0');
  char* const begin = escaped.data();
  char* end = begin;
  switch (format) {
    case RowFormat::CSV: end = put_csv_text(begin, source_name); break;
    case RowFormat::TSV: end = put_tsv_text(begin, source_name); break;
    case RowFormat::JSONL: end = put_json_string(begin, source_name); break;
  }
  escaped.resize(std::size_t(end - begin));
  // A quoted name stays open: the position is written inside its quotes.
  const bool quoted = format == RowFormat::JSONL || (format == RowFormat::CSV && escaped != source_name);
  if (quoted) {
    escaped.pop_back();
    source_close_.push_back('"');
  }
  source_open_ = std::move(escaped);
}

void RowFormatter::header(ByteBuffer& out) const {
  if (format_ == RowFormat::JSONL) return;
  bool first = true;
  const auto column = [&](std::string_view name) {
    if (!first) out.append(format_ == RowFormat::CSV ? "," : "\t");
    out.append(name);
    first = false;
  };
  for (const std::string_view name : CLASSIFY_COLUMNS) column(name);
  if (columns_.game) column("game");
  if (columns_.ply) column("ply");
  if (columns_.move_uci) column("move_uci");
  if (columns_.move_san) column("move_san");
  if (columns_.clock) column("clock");
  if (columns_.eval) {
    column("eval_cp");
    column("eval_mate");
  }
  for (const std::string& tag : columns_.tags) column(tag);  // tag names are PGN symbols: no quoting
  if (columns_.all_tags) column("tags");
  for (const std::string& name : columns_.kept) column(name);
  out.append("\n");
}

void RowFormatter::row(ByteBuffer& out, const ClassifyRow& row) const {
  // Worst case: every text byte escaped to six (JSON \u00XX), plus the fixed columns and flags.
  std::size_t bound = source_open_.size() + 6 * (row.fen.size() + row.id.size() + row.error.size()) + 1024;
  if (columns_.any()) {
    bound += 6 * (row.move_uci.size() + row.move_san.size() + row.all_tags_json.size()) + 256;
    bound += row.has_tag_columns ? row.tag_columns.size() : tag_columns_bound(nullptr, 0);
    for (std::size_t i = 0; i < row.kept_count; ++i) bound += 6 * row.kept_values[i].size() + 64;
    for (const std::string& name : columns_.kept) bound += 6 * name.size() + 8;
  }
  char* p = out.reserve(bound);
  switch (format_) {
    case RowFormat::CSV: p = write_row<RowFormat::CSV>(p, source_open_, source_close_, row, columns_); break;
    case RowFormat::TSV: p = write_row<RowFormat::TSV>(p, source_open_, source_close_, row, columns_); break;
    case RowFormat::JSONL: p = write_row<RowFormat::JSONL>(p, source_open_, source_close_, row, columns_); break;
  }
  out.commit(p);
}

std::size_t RowFormatter::tag_columns_bound(const std::string_view* values, std::size_t count) const {
  std::size_t bound = 16;
  for (std::size_t i = 0; i < count; ++i) bound += 6 * values[i].size() + 64;
  for (const std::string& tag : columns_.tags) bound += tag.size() + 8;
  return bound;
}

std::string RowFormatter::tag_columns(const std::string_view* values, std::size_t count) const {
  std::string text(tag_columns_bound(values, count), '\0');
  char* end = text.data();
  switch (format_) {
    case RowFormat::CSV: end = write_tags_after_columns<RowFormat::CSV>(text.data(), columns_, values, count); break;
    case RowFormat::TSV: end = write_tags_after_columns<RowFormat::TSV>(text.data(), columns_, values, count); break;
    case RowFormat::JSONL:
      end = write_tags_after_columns<RowFormat::JSONL>(text.data(), columns_, values, count);
      break;
  }
  text.resize(std::size_t(end - text.data()));
  return text;
}

}  // namespace perftkit
