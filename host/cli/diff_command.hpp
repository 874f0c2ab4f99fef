// `perftkit diff`: drives someone else's move generator (UCI, perftree's script interface,
// or a divide command template) and descends to the first position where it and perftkit
// part (README: "Debugging your move generator").
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit diff`; exits 0 when the engine agrees, 1 when it differs or
// misbehaves (with the report), 2 for bad usage or an engine that cannot be run.
void add_diff_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
