#include "workdir/run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common/errors.hpp"
#include "common/json_writer.hpp"
#include "workdir/shard_assignment.hpp"
#include "common/system_memory.hpp"
#include "notation/fen.hpp"
#include "perft/hash_sizing.hpp"
#include "workdir/setup.hpp"
#ifdef PERFTKIT_HAVE_MPI
#include "workdir/mpi_ranks.hpp"
#endif

namespace perftkit {
namespace {

// Set in the environment of every process an MPI launcher starts (Open MPI, MPICH/Hydra,
// Slurm's srun with PMI or PMIx).
bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

PerftRequest settings_for_process(const WorkDirPerft& request, const WorkManifest& run, unsigned local_processes) {
  PerftRequest settings = request.settings;
  local_processes = std::max(1u, local_processes);
  if (!settings.threads) settings.threads = std::max(1u, hardware_threads() / local_processes);
  if (request.hash_mb) {
    settings.hash_bytes = *request.hash_mb << 20;
  } else {
    const FenResult root = parse_fen(run.fen);
    const std::size_t needed = root ? suggested_hash_bytes(root->position, run.depth) : default_hash_bytes();
    settings.hash_bytes = std::min(default_hash_bytes() / local_processes, needed) >> 20 << 20;
  }
  return settings;
}

void describe_table(const WorkDirPerft& request, const PerftRequest& settings) {
  if (!settings.hash_bytes) return;
  std::fprintf(stderr, "hash: %zu MB per process%s, seed %llu\n", settings.hash_bytes >> 20,
               request.hash_mb ? "" : " (default: what this depth needs, at most a quarter of available memory)",
               static_cast<unsigned long long>(settings.hash_seed));
}

void describe_work_dir(const WorkDir& dir, std::size_t done_before) {
  const WorkManifest& m = dir.manifest();
  std::fprintf(stderr, "work dir %s: perft %d in %zu shards (%llu positions at ply %d, %d %s below), %zu done\n",
               dir.path().c_str(), m.depth, m.shard_count(), static_cast<unsigned long long>(m.frontier_positions),
               m.split_plies, m.remaining_depth(), m.remaining_depth() == 1 ? "ply" : "plies", done_before);
}

int report_work_dir_total(const WorkDirPerft& request, const WorkDir& dir, double seconds, const char* backend,
                          unsigned threads, unsigned processes) {
  const WorkScan scan = scan_work_dir(dir, request.claim_timeout_seconds);
  for (const std::string& problem : scan.problems) std::fprintf(stderr, "perftkit: warning: %s\n", problem.c_str());
  if (!scan.complete()) {
    std::fprintf(stderr,
                 "perftkit: work dir %s is incomplete: %zu of %zu shards have a valid result (%zu missing, %zu "
                 "corrupt); run the command again to finish it\n",
                 dir.path().c_str(), scan.done, scan.shards, scan.missing, scan.corrupt);
    return EXIT_CHECK_FAILED;
  }
  if (request.json) {
    JsonWriter json(std::cout);
    json.begin_object()
        .field("fen", dir.manifest().fen)
        .field("depth", dir.manifest().depth)
        .field("nodes", scan.nodes)
        .field("seconds", seconds)
        .field("backend", backend)
        .field("threads", threads)
        .field("processes", processes)
        .field("work_dir", dir.path())
        .field("shards", static_cast<unsigned long long>(scan.shards))
        .field("split_plies", dir.manifest().split_plies)
        .field("run_busy_seconds", scan.busy_seconds)
        .field("run_nps", scan.run_rate())
        .end_object();
  } else {
    std::cout << "Nodes searched: " << to_string_u128(scan.nodes) << '\n';
  }
  std::fprintf(stderr, "time %.3f s; the run: %.3f s busy, %.4g nodes/s (%s, %u process%s of %u thread%s)\n", seconds,
               scan.busy_seconds, scan.run_rate(), backend, processes, processes == 1 ? "" : "es", threads,
               threads == 1 ? "" : "s");
  return EXIT_OK;
}

int perft_in_work_dir(const WorkDirPerft& request) {
#ifdef PERFTKIT_HAVE_MPI
  if (started_by_mpi_launcher() && !request.prepare_only) return perft_in_work_dir_mpi(request);
#else
  if (started_by_mpi_launcher())
    std::fprintf(stderr, "perftkit: built without MPI: the processes share the work dir through claim files\n");
#endif
  const auto start = std::chrono::steady_clock::now();
  const WorkDir dir = prepare_work_dir(request.path, request.split, stderr);
  const WorkScan before = scan_work_dir(dir, request.claim_timeout_seconds);
  describe_work_dir(dir, before.done);
  if (request.prepare_only) return EXIT_OK;

  const PerftRequest settings = settings_for_process(request, dir.manifest(), 1);
  describe_table(request, settings);
  ShardWorker worker(dir, settings, default_worker_name(), request.progress ? stderr : nullptr);
  ShardClaims claims(dir, request.claim_timeout_seconds);
  AssignmentOptions options;
  options.wait_for_others = true;
  count_assigned_shards(worker, claims, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report_work_dir_total(request, dir, seconds, worker.backend_name(), settings.threads, 1);
}

}  // namespace perftkit
