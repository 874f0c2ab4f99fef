#include "cli/uci_command.hpp"

#include <iostream>
#include <string>

#include "cli/cli_common.hpp"
#include "cli/uci_session.hpp"
#include "common/build_info.hpp"

namespace perftkit {

void add_uci_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("uci", "Speak UCI on stdin/stdout (position, go perft N, d): a reference engine");
  cmd->callback([&exit_code] {
    // A banner first, as Stockfish prints one: perftree reads and discards a first line.
    std::cout << "perftkit " << perftkit_version() << " (UCI: position, go perft N, d)" << std::endl;
    UciSession session(std::cout);
    for (std::string line; std::getline(std::cin, line);)
      if (!session.handle(line)) break;
    exit_code = EXIT_OK;
  });
}

}  // namespace perftkit
