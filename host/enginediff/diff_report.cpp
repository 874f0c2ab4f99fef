#include "enginediff/diff_report.hpp"

#include <cstdio>

namespace perftkit {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::string path_text(const std::vector<std::string>& path) { return path.empty() ? "(root)" : join(path); }

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  return buffer;
}

void print_mismatches(std::ostream& out, const char* title, const std::vector<MoveMismatch>& moves) {
  if (moves.empty()) return;
  out << "  " << title << ":\n";
  for (const MoveMismatch& m : moves)
    out << "    " << m.move << "  " << to_string_u128(m.count) << (m.rule.empty() ? "" : "  (" + m.rule + ")") << '\n';
}

void write_mismatches(JsonWriter& json, const char* name, const std::vector<MoveMismatch>& moves) {
  json.key(name).begin_array();
  for (const MoveMismatch& m : moves)
    json.begin_object().field("move", m.move).field("count", m.count).field("rule", m.rule).end_object();
  json.end_array();
}

void write_path(JsonWriter& json, const char* name, const std::vector<std::string>& path) {
  json.key(name).begin_array();
  for (const std::string& move : path) json.value(move);
  json.end_array();
}

}  // namespace

const char* verdict_name(DiffVerdict verdict) {
  switch (verdict) {
    case DiffVerdict::AGREE: return "agree";
    case DiffVerdict::DIFFER: return "differ";
    case DiffVerdict::ENGINE_FAILED: return "engine failed";
  }
  return "?";
}

void print_diff_text(std::ostream& out, const DiffOutcome& outcome, const std::string& label) {
  const std::string prefix = label.empty() ? "" : label + ": ";
  for (const DiffLevel& level : outcome.levels) {
    out << prefix << "depth " << level.depth << "  " << path_text(level.path) << "  perftkit "
        << to_string_u128(level.perftkit_nodes) << "  engine " << to_string_u128(level.engine_nodes);
    if (!level.descend_into.empty()) {
      const CountMismatch& worst = level.differing.front();
      out << "  -> " << level.descend_into << " (perftkit " << to_string_u128(worst.perftkit) << ", engine "
          << to_string_u128(worst.engine) << ")";
    }
    out << '\n';
  }
  if (outcome.verdict == DiffVerdict::ENGINE_FAILED) {
    const EngineFailureReport& f = *outcome.failure;
    out << prefix << "engine " << engine_failure_name(f.kind) << " at " << f.fen << " (moves: " << path_text(f.path)
        << ", depth " << f.depth << "): " << f.message << '\n';
    if (!f.last_lines.empty()) {
      out << "  last lines the engine printed:\n";
      for (const std::string& line : f.last_lines) out << "    | " << line << '\n';
    }
  } else if (outcome.verdict == DiffVerdict::AGREE) {
    const DiffLevel& root = outcome.levels.front();
    out << prefix << "agree: " << to_string_u128(root.perftkit_nodes) << " nodes at depth " << root.depth << '\n';
  } else {
    const DiffLevel& last = outcome.levels.back();
    out << prefix << "differ: the generators part at\n  " << last.fen
        << "\n  moves from the root: " << path_text(last.path) << "\n  depth " << last.depth << ": perftkit "
        << to_string_u128(last.perftkit_nodes) << ", engine " << to_string_u128(last.engine_nodes) << '\n';
    print_mismatches(out, "missing (legal, the engine does not list them)", last.missing);
    print_mismatches(out, "extra (listed by the engine, not legal)", last.extra);
    if (last.missing.empty() && last.extra.empty())
      for (const CountMismatch& m : last.differing)
        out << "  " << m.move << ": perftkit " << to_string_u128(m.perftkit) << ", engine " << to_string_u128(m.engine)
            << '\n';
  }
  if (!outcome.note.empty()) out << prefix << "note: " << outcome.note << '\n';
  out << prefix << "engine calls " << outcome.engine_calls << ", engine " << seconds_text(outcome.engine_seconds)
      << ", perftkit " << seconds_text(outcome.perftkit_seconds) << '\n';
}

void write_diff_json(JsonWriter& json, const DiffOutcome& outcome, const std::string& label) {
  json.begin_object();
  if (!label.empty()) json.field("position", label);
  json.field("verdict", verdict_name(outcome.verdict));
  json.key("levels").begin_array();
  for (const DiffLevel& level : outcome.levels) {
    json.begin_object();
    write_path(json, "path", level.path);
    json.field("fen", level.fen)
        .field("depth", level.depth)
        .field("perftkit", level.perftkit_nodes)
        .field("engine", level.engine_nodes);
    json.field("engine_total", level.engine_total);
    write_mismatches(json, "missing", level.missing);
    write_mismatches(json, "extra", level.extra);
    json.key("differing").begin_array();
    for (const CountMismatch& m : level.differing)
      json.begin_object().field("move", m.move).field("perftkit", m.perftkit).field("engine", m.engine).end_object();
    json.end_array();
    json.field("descend_into", level.descend_into);
    json.end_object();
  }
  json.end_array();
  if (outcome.verdict == DiffVerdict::DIFFER) {
    const DiffLevel& last = outcome.levels.back();
    write_path(json, "path", last.path);
    json.field("fen", last.fen);
    write_mismatches(json, "missing", last.missing);
    write_mismatches(json, "extra", last.extra);
  }
  if (outcome.failure) {
    const EngineFailureReport& f = *outcome.failure;
    json.key("failure")
        .begin_object()
        .field("kind", engine_failure_name(f.kind))
        .field("message", f.message)
        .field("fen", f.fen);
    write_path(json, "path", f.path);
    json.field("depth", f.depth);
    write_path(json, "last_lines", f.last_lines);
    json.end_object();
  }
  json.field("note", outcome.note).field("engine_calls", outcome.engine_calls);
  json.field("engine_seconds", outcome.engine_seconds).field("perftkit_seconds", outcome.perftkit_seconds);
  json.end_object();
}

}  // namespace perftkit
