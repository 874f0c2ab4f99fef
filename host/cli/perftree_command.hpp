// `perftkit perftree DEPTH FEN [MOVES]`: the script interface of the perftree debugger, so
// that perftkit can be the engine perftree steps through (README: "perftree").
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit perftree`; exits 0 with the divide, 2 for a bad FEN, move or depth.
void add_perftree_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
