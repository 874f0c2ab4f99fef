// `perftkit bench`: a fixed, self-checking workload per backend, with medians and a
// determinism signature; and `perftkit info` (info_command.hpp) for the machine it ran on.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit bench`; its exit status (0, or 1 when a count or the signature does
// not match the published counts) is written to exit_code.
void add_bench_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
