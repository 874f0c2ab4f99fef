// Pieces shared by the subcommands: backend names, the usage-error exception, exit codes.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "perft_driver.hpp"

namespace perftkit {

enum ExitCode : int { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_BAD_INPUT = 2 };

// Bad usage or input: main prints the message and exits with EXIT_BAD_INPUT.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline const std::map<std::string, Backend> BACKEND_NAMES{
    {"auto", Backend::AUTO}, {"cpu", Backend::CPU}, {"cuda", Backend::CUDA}, {"pipeline", Backend::PIPELINE}};

// A result check failed (e.g. --cross-check): main prints the message and exits with
// EXIT_CHECK_FAILED.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace perftkit
