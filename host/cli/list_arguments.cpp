#include "cli/list_arguments.hpp"

#include <array>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "classify/game_columns.hpp"
#include "classify/row_filter.hpp"

namespace perftkit {
namespace {

bool all_parts(std::string_view word, bool (*is_name)(std::string_view)) {
  if (word.empty()) return false;
  for (;;) {
    const std::size_t comma = word.find(',');
    if (!is_name(word.substr(0, comma))) return false;
    if (comma == std::string_view::npos) return true;
    word.remove_prefix(comma + 1);
  }
}

bool is_fact(std::string_view name) { return RowFilter().select(name); }
bool is_game_column(std::string_view name) { return GameColumns().add(name); }

// A word that reads as an input file rather than a column or tag name.
bool names_a_file(const std::string& word) {
  static constexpr std::array<std::string_view, 12> extensions{".pgn",   ".fen",    ".epd", ".txt", ".csv", ".tsv",
                                                               ".jsonl", ".ndjson", ".zst", ".gz",  ".bz2", ".xz"};
  for (std::string_view extension : extensions)
    if (word.size() > extension.size() &&
        word.compare(word.size() - extension.size(), extension.size(), extension.data(), extension.size()) == 0)
      return true;
  std::error_code error;
  return std::filesystem::exists(word, error);
}

bool is_open_item(const std::string& word) { return !word.empty() && word[0] != '-' && !names_a_file(word); }

struct ListOption {
  std::string_view name;
  bool (*is_item)(const std::string&);
};

constexpr std::array<ListOption, 4> CLASSIFY_LISTS{{
    {"--only", [](const std::string& word) { return all_parts(word, is_fact); }},
    {"--columns", [](const std::string& word) { return all_parts(word, is_game_column); }},
    {"--tags", is_open_item},
    {"--keep-columns", is_open_item},
}};

const ListOption* list_option(const std::string& word) {
  for (const ListOption& option : CLASSIFY_LISTS)
    if (word == option.name ||
        (word.size() > option.name.size() && word.compare(0, option.name.size(), option.name) == 0 &&
         word[option.name.size()] == '='))
      return &option;
  return nullptr;
}

}  // namespace

std::vector<std::string> join_list_words(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != "classify") return args;
  std::vector<std::string> joined;
  for (std::size_t i = 0; i < args.size(); ++i) {
    joined.push_back(args[i]);
    if (args[i] == "--") {  // the rest are files, whatever they look like
      joined.insert(joined.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    const ListOption* option = list_option(args[i]);
    if (option == nullptr) continue;
    if (args[i] == option->name) {  // the first item is the next word, whatever it is
      if (i + 1 == args.size()) break;
      joined.push_back(args[++i]);
    }
    while (i + 1 < args.size() && option->is_item(args[i + 1])) joined.back() += "," + args[++i];
  }
  return joined;
}

}  // namespace perftkit
