#include "cli/unknown_arguments.hpp"

namespace perftkit {

std::string unknown_argument_message(CLI::App& app, int argc, char** argv) {
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) {
    if (argc < 2 || argv[1][0] == '-') return {};
    std::string commands;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
    return "unknown command '" + std::string(argv[1]) + "' (commands: " + commands + ")";
  }
  CLI::App* sub = chosen.front();
  const std::vector<std::string> extra = sub->remaining();
  if (extra.empty()) return {};
  const std::string& word = extra.front();
  if (word.size() > 1 && word[0] == '-') return sub->get_name() + ": unknown option '" + word + "'";
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
