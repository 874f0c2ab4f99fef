#include "cli/unknown_arguments.hpp"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

namespace perftkit {
namespace {

// Edits (insert, delete, replace, swap two neighbours) from a to b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// ' (did you mean 'NAME'?)' when a candidate is close, else "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string name = closest_name(word, candidates);
  return name.empty() ? std::string() : " (did you mean '" + name + "'?)";
}

}  // namespace

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 3;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string readable_parse_error(const std::string& message) {
  // "--backend: Check gpu value in {auto->0,cpu->1,cuda->2,pipeline->3} OR {0,1,2,3} FAILED"
  static const std::regex choice(R"(^(.*): Check (.*) value in \{([^}]*)\}( OR \{[^}]*\})? FAILED$)");
  // "--depth: Value abc not in range 0 to 64"
  static const std::regex range(R"(^(.*): Value (.*) not in range (.*) to (.*)$)");
  std::smatch m;
  if (std::regex_match(message, m, range))
    return m[1].str() + ": '" + m[2].str() + "' is not a number from " + m[3].str() + " to " + m[4].str();
  if (!std::regex_match(message, m, choice)) return message;
  std::string names;
  const std::string table = m[3].str();
  for (std::size_t at = 0; at < table.size();) {
    const std::size_t comma = std::min(table.find(',', at), table.size());
    const std::string entry = table.substr(at, comma - at);
    names += (names.empty() ? "" : ", ") + entry.substr(0, entry.find("->"));
    at = comma + 1;
  }
  return m[1].str() + ": '" + m[2].str() + "' is not one of " + names;
}

std::string unknown_argument_message(CLI::App& app, int argc, char** argv) {
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) {
    if (argc < 2 || argv[1][0] == '-') return {};
    std::string commands;
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
      names.push_back(sub->get_name());
    }
    const std::string close = closest_name(argv[1], names);
    return "unknown command '" + std::string(argv[1]) + "'" +
           (close.empty() ? "" : " (did you mean '" + close + "'?)") + " (commands: " + commands + ")";
  }
  CLI::App* sub = chosen.front();
  const std::vector<std::string> extra = sub->remaining();
  if (extra.empty()) return {};
  const std::string& word = extra.front();
  if (word.size() > 1 && word[0] == '-') {
    std::vector<std::string> names;
    for (const CLI::Option* option : sub->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
      for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    }
    const std::string given = word.substr(0, word.find('='));
    return sub->get_name() + ": unknown option '" + word + "'" + suggestion(given, names);
  }
  return sub->get_name() + ": unexpected argument '" + word + "'";
}

void refuse_options_as_values(CLI::App& app) {
  const CLI::Validator not_an_option(
      [](const std::string& value) -> std::string {
        if (value.size() > 2 && value.compare(0, 2, "--") == 0)
          return "expects a value, not the option '" + value + "' (put the value first, or quote it)";
        return {};
      },
      "");
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; }))
    for (CLI::Option* option : command->get_options())
      if (option->get_expected_max() > 0 && !option->get_positional()) option->check(not_an_option);
}

}  // namespace perftkit
