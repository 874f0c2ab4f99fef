#include "classify/stream_choices.hpp"

#include "common/errors.hpp"

namespace perftkit {

void apply_classify_choices(const ClassifyChoices& choices, ClassifyStreamOptions& options) {
  for (const std::string& name : choices.only)
    if (!options.filter.select(name))
      throw UsageError("--only: unknown fact '" + name + "' (" + RowFilter::names() + ")");
  if (choices.game_over) options.filter.select("game_over");
  for (const std::string& name : choices.columns)
    if (!options.columns.add(name))
      throw UsageError("--columns: unknown column '" + name + "' (" + GameColumns::names() + ")");
  for (const std::string& name : choices.keep_columns)
    if (name.empty() || name.find_first_of(",\"\\\t\r\n") != std::string::npos)
      throw UsageError("--keep-columns: bad column name '" + name + "'");
  options.fen_column = choices.fen_column;
  options.keep_columns = choices.keep_columns;
  options.columns.kept = choices.keep_columns;
  for (const std::string& tag : choices.tags) {
    if (tag == "all") options.columns.all_tags = true;
    else if (tag.empty() || tag.find_first_of(" \t\",\"") != std::string::npos)
      throw UsageError("--tags: bad tag name '" + tag + "'");
    else options.columns.tags.push_back(tag);
  }
}

const std::map<std::string, InputKind>& input_kind_names() {
  static const std::map<std::string, InputKind> names{
      {"auto", InputKind::AUTO}, {"fen", InputKind::LINES}, {"epd", InputKind::LINES},  {"pgn", InputKind::PGN},
      {"csv", InputKind::CSV},   {"tsv", InputKind::TSV},   {"jsonl", InputKind::JSONL}};
  return names;
}

const std::map<std::string, PgnPositions>& pgn_positions_names() {
  static const std::map<std::string, PgnPositions> names{{"all", PgnPositions::ALL}, {"final", PgnPositions::FINAL}};
  return names;
}

}  // namespace perftkit
