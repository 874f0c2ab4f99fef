#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit perft`; the command's exit status is written to exit_code.
void add_perft_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
