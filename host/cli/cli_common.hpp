// Pieces shared by the subcommands: backend names, and the errors and exit codes of
// common/errors.hpp.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "common/errors.hpp"
#include "common/system_memory.hpp"
#include "perft/driver.hpp"

namespace perftkit {

inline const std::map<std::string, Backend> BACKEND_NAMES{
    {"auto", Backend::AUTO}, {"cpu", Backend::CPU}, {"cuda", Backend::CUDA}, {"pipeline", Backend::PIPELINE}};

// A table size in MB: a whole number from 0 up to the memory this machine has free now
// (a negative one would wrap around to an absurd size; a larger one cannot be allocated).
inline CLI::Validator table_megabytes() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
          return "a table size is a whole number of MB (0 or more), not '" + text + "'";
        const std::size_t limit_mb = available_memory_bytes() >> 20;
        if (limit_mb && (text.size() > 15 || std::stoull(text) > limit_mb))
          return text + " MB is more than the " + std::to_string(limit_mb) + " MB of memory available";
        return {};
      },
      "MB");
}

}  // namespace perftkit
