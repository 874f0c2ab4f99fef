// The perftkit command line, as main() runs it.
#pragma once

namespace perftkit {

// Parses argv, runs the subcommand it names and returns the process exit code: 0 ok, 1 a check
// failed, 2 bad usage or input, 3 a runtime failure. 130 and 143
// (interrupted) come from the signal handler, not from here.
int run_command_line(int argc, char** argv);

}  // namespace perftkit
