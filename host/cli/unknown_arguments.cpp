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

}  // namespace perftkit
