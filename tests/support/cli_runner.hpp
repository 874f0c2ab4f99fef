// Runs the perftkit binary under test and captures what it printed, for end-to-end tests.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "support/test_paths.hpp"

namespace perftkit::testing_support {

struct CommandResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// A shell command line, its stderr with its stdout; exit_code is -1 when it did not exit
// normally.
inline CommandResult run_shell(const std::string& command_line) {
  const std::string command = "( " + command_line + " ) 2>&1";
  CommandResult result{-1, {}};
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), int(buffer.size()), pipe)) result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// `perftkit ARGS` through the shell.
inline CommandResult run_perftkit(const std::string& args) {
  return run_shell(std::string(perftkit::test_paths::perftkit_binary()) + " " + args);
}

}  // namespace perftkit::testing_support
