#include "workdir/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "common/errors.hpp"
#include "common/json_writer.hpp"
#include "workdir/shard_assignment.hpp"
#include "common/system_memory.hpp"
#include "common/units_progress_line.hpp"
#include "notation/fen.hpp"
#include "perft/hash_sizing.hpp"
#include "perft/stats_output.hpp"
#include "workdir/rank_group.hpp"
#include "workdir/setup.hpp"

namespace perftkit {
PerftRequest settings_for_process(const WorkDirPerft& request, const WorkManifest& run, unsigned local_processes) {
  PerftRequest settings = request.settings;
  local_processes = std::max(1u, local_processes);
  if (!settings.threads) settings.threads = std::max(1u, hardware_threads() / local_processes);
  if (request.hash_mb) {
    settings.hash_bytes = *request.hash_mb << 20;
  } else {
    const FenResult root = parse_fen(run.fen);
    const std::size_t needed = !root       ? default_hash_bytes()
                               : run.stats ? suggested_stats_hash_bytes(root->position, run.depth)
                                           : suggested_hash_bytes(root->position, run.depth);
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
        .field("run_nps", scan.run_rate());
    if (dir.manifest().stats) {  // as plain perft --stats --json writes them
      write_stats_fields(json, scan.stats);
    }
    json.end_object();
  } else {
    if (dir.manifest().stats) print_stats_summary(std::cout, scan.stats);  // as plain perft --stats prints them
    std::cout << "Nodes searched: " << to_string_u128(scan.nodes) << '\n';
  }
  std::fprintf(stderr, "time %.3f s; the run: %.3f s busy, %.4g nodes/s (%s, %u process%s of %u thread%s)\n", seconds,
               scan.busy_seconds, scan.run_rate(), backend, processes, processes == 1 ? "" : "es", threads,
               threads == 1 ? "" : "s");
  return EXIT_OK;
}

namespace {

// Set in the environment of every process an MPI launcher starts (Open MPI, MPICH/Hydra,
// Slurm's srun with PMI or PMIx).
bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// "perft 9", the label of the run's progress line.
std::string run_label(const WorkDir& dir) { return "perft " + std::to_string(dir.manifest().depth); }

// One process, or several on the same dir (started by hand or by a launcher without MPI in
// the build): each claims the next free shard through a claim file.
int count_with_claims(const WorkDirPerft& request, Clock::time_point start) {
  const WorkDir dir = prepare_work_dir(request.path, request.split, stderr);
  const WorkScan before = scan_work_dir(dir, request.claim_timeout_seconds);
  describe_work_dir(dir, before.done);
  if (request.prepare_only) return EXIT_OK;

  const PerftRequest settings = settings_for_process(request, dir.manifest(), 1);
  describe_table(request, settings);
  WorkProgress shards;
  shards.done = before.done;
  ShardWorker worker(dir, settings, default_worker_name(), &shards);
  worker.tell_interrupts_where_the_run_stands(before.done);
  std::optional<UnitsProgressLine> progress_line;
  if (request.progress) progress_line.emplace(shards, run_label(dir), "shards", ::isatty(STDERR_FILENO) != 0);
  shards.total = dir.shard_count();
  ShardClaims claims(dir, request.claim_timeout_seconds);
  AssignmentOptions options;
  options.wait_for_others = true;
  count_assigned_shards(worker, claims, options);
  if (progress_line) progress_line->stop();
  return report_work_dir_total(request, dir, seconds_since(start), worker.backend_name(), settings.threads, 1);
}

// The ranks of an MPI job: rank 0 alone prepares the run (it writes the shards); the others
// open it once it is there. Then the group counts the shards and rank 0 reports the total.
int count_over_ranks(const WorkDirPerft& request, RankGroup& ranks, Clock::time_point start) {
  std::exception_ptr failure;
  std::optional<WorkDir> dir;
  if (ranks.rank() == 0) {
    try {
      dir.emplace(prepare_work_dir(request.path, request.split, stderr));
    } catch (...) {
      failure = std::current_exception();
    }
  }
  const bool prepared = ranks.agree_prepared(!failure);
  if (failure) std::rethrow_exception(failure);
  if (!prepared) return EXIT_BAD_INPUT;  // rank 0 says why
  if (ranks.rank() != 0) {
    try {
      dir.emplace(WorkDir::open(request.path));
    } catch (const std::exception& e) {
      ranks.abort_job(std::string(e.what()) + " (is the work dir on a filesystem every rank shares?)");
    }
  }

  const PerftRequest settings = settings_for_process(request, dir->manifest(), unsigned(ranks.local_size()));
  // Rank 0 records every result, its own and those the others send: it draws the progress.
  WorkProgress shards;
  std::optional<ShardWorker> worker;
  try {
    worker.emplace(*dir, settings, default_worker_name() + "/rank" + std::to_string(ranks.rank()), &shards);
  } catch (const std::exception& e) {
    ranks.abort_job(e.what());
  }
  std::optional<UnitsProgressLine> progress_line;
  if (ranks.rank() == 0) {
    const std::size_t done_before = scan_work_dir(*dir, request.claim_timeout_seconds).done;
    describe_work_dir(*dir, done_before);
    describe_table(request, settings);
    std::fprintf(stderr, "mpi: %d ranks (%d on this machine), %u thread%s each\n", ranks.size(), ranks.local_size(),
                 settings.threads, settings.threads == 1 ? "" : "s");
    shards.done = done_before;
    if (request.progress) progress_line.emplace(shards, run_label(*dir), "shards", ::isatty(STDERR_FILENO) != 0);
    shards.total = dir->shard_count();
  }
  ranks.count_shards(*dir, *worker);
  if (progress_line) progress_line->stop();
  if (ranks.rank() != 0) return EXIT_OK;
  return report_work_dir_total(request, *dir, seconds_since(start), worker->backend_name(), settings.threads,
                               unsigned(ranks.size()));
}

}  // namespace

int perft_in_work_dir(const WorkDirPerft& request) {
  const Clock::time_point start = Clock::now();
  if (started_by_mpi_launcher() && !request.prepare_only)
    if (const std::unique_ptr<RankGroup> ranks = join_rank_group()) return count_over_ranks(request, *ranks, start);
  return count_with_claims(request, start);
}

}  // namespace perftkit
