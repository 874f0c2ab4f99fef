// `perftkit work DIR`: one worker of a work-dir run, for job arrays and any scheduler on a
// shared filesystem: counts the shards it can claim (or its part, --worker K --workers N)
// until none is left for it, writing each result durably.
#pragma once

#include <CLI/CLI.hpp>

namespace perftkit {

// Registers `perftkit work`; exits 0 when every shard it took was counted, 1 when a shard
// could not be (a damaged shard file), 2 on bad usage or when DIR holds no readable run.
void add_work_command(CLI::App& app, int& exit_code);

}  // namespace perftkit
