// Pieces shared by the subcommands: backend names, and the errors and exit codes of
// common/errors.hpp.
#pragma once

#include <map>
#include <string>

#include "common/errors.hpp"
#include "perft/driver.hpp"

namespace perftkit {

inline const std::map<std::string, Backend> BACKEND_NAMES{
    {"auto", Backend::AUTO}, {"cpu", Backend::CPU}, {"cuda", Backend::CUDA}, {"pipeline", Backend::PIPELINE}};

}  // namespace perftkit
