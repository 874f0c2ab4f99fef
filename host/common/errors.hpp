// Errors every subsystem reports the same way, and the exit codes main gives them.
#pragma once

#include <stdexcept>

namespace perftkit {

// One meaning each (README, "Exit codes"). 130 and 143 come from interrupt.cpp (128 + the signal).
enum ExitCode : int {
  EXIT_OK = 0,
  EXIT_CHECK_FAILED = 1,     // a count mismatch, --strict rejections, a damaged input stream
  EXIT_BAD_INPUT = 2,        // bad usage or bad input
  EXIT_RUNTIME_FAILURE = 3,  // out of memory, disk full, an I/O or CUDA error
  EXIT_INTERRUPTED = 130,    // SIGINT (Ctrl-C)
};

// Bad usage or input: main prints the message and exits with EXIT_BAD_INPUT.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A result check failed (e.g. --cross-check): main prints the message and exits with
// EXIT_CHECK_FAILED.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The machine failed the command, not its input: out of memory, disk full, an I/O error, a
// CUDA error. main prints the message and exits with EXIT_RUNTIME_FAILURE.
struct RuntimeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace perftkit
