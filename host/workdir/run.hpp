// `perftkit perft --work-dir DIR`: a perft as durable shards. Starts the run or resumes it,
// counts what is left (over MPI ranks when started by an MPI launcher in an MPI build; else
// with the other processes on the same dir through claim files), then sums the results.
#pragma once

#include <optional>
#include <string>

#include "perft/driver.hpp"
#include "workdir/scan.hpp"
#include "workdir/split.hpp"

namespace perftkit {

struct WorkDirPerft {
  std::string path;
  SplitRequest split;                  // root, depth, --shards, --split-depth
  PerftRequest settings;               // backend, threads (0: every core), hash, seed
  std::optional<std::size_t> hash_mb;  // --hash as given (unset: the default size)
  double claim_timeout_seconds = 600;
  bool progress = false;      // shards done, share and ETA on stderr (common/units_progress_line)
  bool prepare_only = false;  // write the shards and the manifest, count nothing
  bool json = false;
};

// Runs it; returns the exit code. Throws WorkDirError (another run in the dir, a damaged
// manifest), std::invalid_argument (bad split options) or std::runtime_error (backend).
int perft_in_work_dir(const WorkDirPerft& request);

// The settings with the defaults filled in for `local_processes` processes sharing this
// machine: every core, divided between them, and a table (kept from shard to shard) sized by
// plain perft's rule for the run's root and depth (suggested_hash_bytes, or for statistics
// suggested_stats_hash_bytes), at most a quarter of available memory divided between them.
PerftRequest settings_for_process(const WorkDirPerft& request, const WorkManifest& run, unsigned local_processes);

// "hash: N MB per process (default: ...), seed S" on stderr, as plain perft prints it.
void describe_table(const WorkDirPerft& request, const PerftRequest& settings);

// Prints the run's total on stdout (text or JSON) once every shard has a valid result and
// returns EXIT_OK; else reports what is missing on stderr and returns EXIT_CHECK_FAILED.
int report_work_dir_total(const WorkDirPerft& request, const WorkDir& dir, double seconds, const char* backend,
                          unsigned threads, unsigned processes);

// One line on stderr: the run, its size, what is already done.
void describe_work_dir(const WorkDir& dir, std::size_t done_before);

}  // namespace perftkit
