#include "classify/table_source.hpp"

#include <cctype>
#include <charconv>

#include "common/errors.hpp"

namespace perftkit {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// The fields of a CSV (RFC 4180 quotes, "" inside quotes) or TSV line. A quoted field is
// unescaped into storage.
void split_fields(std::string_view line, char sep, bool quotes, std::vector<std::string_view>& fields,
                  std::deque<std::string>& storage) {
  fields.clear();
  line = trim_cr(line);
  std::size_t at = 0;
  for (;;) {
    if (quotes && at < line.size() && line[at] == '"') {
      std::string value;
      std::size_t i = at + 1;
      for (; i < line.size(); ++i) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            value += '"';
            ++i;
            continue;
          }
          break;
        }
        value += line[i];
      }
      storage.push_back(std::move(value));
      fields.push_back(storage.back());
      at = line.find(sep, i);
    } else {
      const std::size_t end = line.find(sep, at);
      fields.push_back(line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
      at = end;
    }
    if (at == std::string_view::npos) return;
    ++at;
  }
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
  return i;
}

// The end of the JSON string starting at s[i] == '"', or npos.
std::size_t string_end(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return std::string_view::npos;
}

// The end of the JSON value starting at s[i], or npos.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  if (s[i] == '"') return string_end(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    for (; i < s.size(); ++i) {
      if (s[i] == '"') {
        i = string_end(s, i);
        if (i == std::string_view::npos) return i;
        --i;
      } else if (s[i] == '{' || s[i] == '[') {
        ++depth;
      } else if (s[i] == '}' || s[i] == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return std::string_view::npos;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ' ') ++i;
  return i;
}

}  // namespace

std::string json_string_text(std::string_view quoted) {
  std::string out;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    if (quoted[i] == '\\' && i + 2 < quoted.size()) {
      const char c = quoted[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
    } else {
      out += quoted[i];
    }
  }
  return out;
}

namespace {

void read_jsonl_line(std::string_view line, const TableLayout& layout, TableFields& out,
                     std::deque<std::string>& storage) {
  std::size_t i = skip_space(line, 0);
  if (i >= line.size() || line[i] != '{') {
    out.error = "jsonl: the line is not a JSON object";
    return;
  }
  bool found_fen = false;
  for (i = skip_space(line, i + 1); i < line.size() && line[i] != '}';) {
    if (line[i] != '"') break;
    const std::size_t key_end = string_end(line, i);
    if (key_end == std::string_view::npos) break;
    const std::string_view key = line.substr(i + 1, key_end - i - 2);
    i = skip_space(line, key_end);
    if (i >= line.size() || line[i] != ':') break;
    i = skip_space(line, i + 1);
    const std::size_t end = value_end(line, i);
    if (end == std::string_view::npos) break;
    const std::string_view value = line.substr(i, end - i);
    if (key == layout.fen_field) {
      if (value.empty() || value.front() != '"') {
        out.error = "jsonl: \"" + layout.fen_field + "\" is not a string";
        return;
      }
      if (value.find('\\') == std::string_view::npos) {
        out.fen = value.substr(1, value.size() - 2);
      } else {
        storage.push_back(json_string_text(value));
        out.fen = storage.back();
      }
      found_fen = true;
    }
    for (std::size_t k = 0; k < layout.kept_fields.size(); ++k)
      if (key == layout.kept_fields[k]) out.kept[k] = value;
    i = skip_space(line, end);
    if (i < line.size() && line[i] == ',') i = skip_space(line, i + 1);
  }
  if (i >= line.size() || line[i] != '}') {
    out.error = "jsonl: malformed JSON object";
    return;
  }
  if (!found_fen) out.error = "jsonl: no \"" + layout.fen_field + "\" field";
}

}  // namespace

TableLayout table_layout_from_header(TableFormat format, std::string_view header, const std::string& fen_column,
                                     const std::vector<std::string>& keep_columns, const std::string& file) {
  TableLayout layout;
  layout.format = format;
  std::vector<std::string_view> names;
  std::deque<std::string> storage;
  if (header.substr(0, 3) == "\xEF\xBB\xBF") header.remove_prefix(3);
  split_fields(header, format == TableFormat::TSV ? '\t' : ',', format == TableFormat::CSV, names, storage);
  const auto find = [&](const std::string& wanted, const char* what) -> std::size_t {
    std::size_t number = 0;
    const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), number);
    if (error == std::errc() && end == wanted.data() + wanted.size()) {
      if (number >= 1 && number <= names.size()) return number - 1;
      throw UsageError(file + ": " + what + " " + wanted + " is past the header's " + std::to_string(names.size()) +
                       " columns");
    }
    for (std::size_t i = 0; i < names.size(); ++i)
      if (same_name(names[i], wanted)) return i;
    throw UsageError(file + ": no column '" + wanted + "' in the header (" +
                     std::string(trim_cr(header.substr(0, 200))) + ")");
  };
  layout.fen_index = find(fen_column.empty() ? "fen" : fen_column, "--fen-column");
  for (const std::string& name : keep_columns) layout.kept.push_back(find(name, "--keep-columns"));
  return layout;
}

TableLayout jsonl_layout(const std::string& fen_column, const std::vector<std::string>& keep_columns) {
  TableLayout layout;
  layout.format = TableFormat::JSONL;
  layout.fen_field = fen_column.empty() ? "fen" : fen_column;
  layout.kept_fields = keep_columns;
  return layout;
}

void read_table_line(std::string_view line, const TableLayout& layout, TableFields& out,
                     std::deque<std::string>& storage) {
  out.fen = {};
  out.error.clear();
  const std::size_t kept = layout.format == TableFormat::JSONL ? layout.kept_fields.size() : layout.kept.size();
  out.kept.assign(kept, std::string_view());
  if (layout.format == TableFormat::JSONL) return read_jsonl_line(line, layout, out, storage);
  thread_local std::vector<std::string_view> fields;
  split_fields(line, layout.format == TableFormat::TSV ? '\t' : ',', layout.format == TableFormat::CSV, fields,
               storage);
  if (layout.fen_index >= fields.size()) {
    out.error = "table: the line has " + std::to_string(fields.size()) + " fields, no FEN column";
    return;
  }
  out.fen = fields[layout.fen_index];
  for (std::size_t k = 0; k < layout.kept.size(); ++k)
    if (layout.kept[k] < fields.size()) out.kept[k] = fields[layout.kept[k]];
}

}  // namespace perftkit
