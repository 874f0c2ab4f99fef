// `perftkit uci`: a UCI loop on standard input and output (cli/uci_session.hpp), so that
// perftkit can stand in for Stockfish as the reference engine of perftree and test harnesses.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit uci`; it exits 0 at `quit` or at the end of its input.
void add_uci_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
