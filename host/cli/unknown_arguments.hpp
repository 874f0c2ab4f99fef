// What to say when the command line does not parse: CLI11 reports a missing required option
// before an unknown one, so `perftkit perft --depht 1` would read "--depth is required". The
// word the user mistyped comes first here.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace perftkit {

// After a parse error: "unknown command 'bogus' (commands: ...)", "perft: unknown option
// '--depht' (did you mean '--depth'?)", "perft: unexpected argument '5'", or "" when every
// word was understood.
std::string unknown_argument_message(CLI::App& app, int argc, char** argv);

// CLI11's message for a value it refused, in the words the rest of perftkit uses: a choice
// among names is listed by name ("--backend: 'gpu' is not one of auto, cpu, cuda, pipeline"),
// not as CLI11's table of names and numbers, and a number out of range is quoted ("--depth:
// 'abc' is not a number from 0 to 64"); other messages pass unchanged.
std::string readable_parse_error(const std::string& message);

// The name among candidates closest to word, within two edits, or "".
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

// Makes every option of app's commands that takes a value refuse one that is itself an
// option ("--threads"): CLI11 would hand `perft --moves --threads 1` the word "--threads"
// as a move. Call once every command is registered.
void refuse_options_as_values(CLI::App& app);

}  // namespace perftkit
