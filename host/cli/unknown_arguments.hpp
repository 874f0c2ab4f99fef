// What to say when the command line does not parse: CLI11 reports a missing required option
// before an unknown one, so `perftkit perft --depht 1` would read "--depth is required". The
// word the user mistyped comes first here.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace perftkit {

// After a parse error: "unknown command 'bogus' (commands: ...)", "perft: unknown option
// '--depht'", "perft: unexpected argument '5'", or "" when every word was understood.
std::string unknown_argument_message(CLI::App& app, int argc, char** argv);

}  // namespace perftkit
