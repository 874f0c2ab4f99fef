// `perftkit info`: the CPU (model, cores, BMI2, whether this build uses PEXT) and every CUDA
// device (name, SMs, memory, compute capability, clocks).
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit info`; exits 0 (a failed device query is printed, not fatal).
void add_info_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
