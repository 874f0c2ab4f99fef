// `perftkit suite`: a perft suite for the user's own positions, in the common
// `FEN ;D1 n ;D2 n ...` form that `verify` and `diff --suite` read back.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit suite`; exits 0 when every input line or game was read, 1 when some
// were rejected (the rest is written, the rejects named on standard error), 2 for bad usage.
void add_suite_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
