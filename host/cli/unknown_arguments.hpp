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

// Makes every option of app's commands that takes a value refuse one that is itself an
// option ("--threads"): CLI11 would hand `perft --moves --threads 1` the word "--threads"
// as a move. Call once every command is registered.
void refuse_options_as_values(CLI::App& app);

}  // namespace perftkit
