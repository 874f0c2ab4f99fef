// `perftkit status DIR`: progress of a work-dir run — shards done, in flight and left, the
// exact total so far, the rate and the time left at that rate.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit status`; exits 0, or 2 when DIR holds no readable run.
void add_status_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
