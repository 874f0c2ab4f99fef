// `perftkit reduce DIR`: the exact total of a work-dir run, once every shard has exactly one
// valid result; exits 1, listing what is missing, before that.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit reduce`; exits 0 with the total, 1 when incomplete, 2 when DIR holds
// no readable run.
void add_reduce_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
