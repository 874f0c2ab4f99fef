// Errors every subsystem reports the same way, and the exit codes main gives them.
#pragma once

#include <stdexcept>

namespace perftkit {

enum ExitCode : int { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_BAD_INPUT = 2 };

// Bad usage or input: main prints the message and exits with EXIT_BAD_INPUT.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A result check failed (e.g. --cross-check): main prints the message and exits with
// EXIT_CHECK_FAILED.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace perftkit
