#include "cli/work_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/cli_common.hpp"
#include "common/units_progress_line.hpp"
#include "workdir/shard_assignment.hpp"
#include "workdir/run.hpp"

namespace perftkit {
namespace {

struct WorkOptions {
  std::string path;
  std::optional<unsigned> worker;
  std::optional<unsigned> workers;
  std::size_t max_shards = 0;
  bool wait = false;
  bool progress = false;
  unsigned threads = 0;
  Backend backend = Backend::AUTO;
  std::optional<std::size_t> hash_mb;
  std::uint64_t seed = 1;
  double claim_timeout = DEFAULT_CLAIM_TIMEOUT_SECONDS;
};

int run(const WorkOptions& opt) {
  if (opt.worker.has_value() != opt.workers.has_value()) throw UsageError("--worker and --workers go together");
  if (opt.worker && *opt.worker >= *opt.workers)
    throw UsageError("--worker " + std::to_string(*opt.worker) + " is not below --workers " +
                     std::to_string(*opt.workers));
  const auto start = std::chrono::steady_clock::now();
  try {
    const WorkDir dir = WorkDir::open(opt.path);
    WorkDirPerft request;
    request.settings.threads = opt.threads;
    request.settings.backend = opt.backend;
    request.settings.hash_seed = opt.seed;
    request.hash_mb = opt.hash_mb;
    const PerftRequest settings = settings_for_process(request, dir.manifest(), 1);
    describe_table(request, settings);
    // The run's shards done (this worker's and, as they were when it started, the others').
    WorkProgress shards;
    shards.done = scan_work_dir(dir, opt.claim_timeout).done;
    ShardWorker worker(dir, settings, default_worker_name(), &shards);
    std::optional<UnitsProgressLine> progress_line;
    if (opt.progress || ::isatty(STDERR_FILENO))
      progress_line.emplace(shards, "perft " + std::to_string(dir.manifest().depth), "shards",
                            ::isatty(STDERR_FILENO) != 0);
    shards.total = dir.shard_count();
    ShardClaims claims(dir, opt.claim_timeout);
    AssignmentOptions options;
    options.worker = opt.worker.value_or(0);
    options.workers = opt.workers.value_or(1);
    options.max_shards = opt.max_shards;
    options.wait_for_others = opt.wait;
    const WorkTally tally = count_assigned_shards(worker, claims, options);
    if (progress_line) progress_line->stop();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const WorkScan scan = scan_work_dir(dir, opt.claim_timeout);
    std::fprintf(stderr,
                 "worker %s: counted %zu shards (%zu of them again after a corrupt result), %s nodes in %.3f s "
                 "(%s, %u thread%s); the run: %zu of %zu shards done\n",
                 worker.name().c_str(), tally.counted, tally.recounted, to_string_u128(tally.nodes).c_str(), seconds,
                 worker.backend_name(), settings.threads, settings.threads == 1 ? "" : "s", scan.done, scan.shards);
    return tally.failed ? EXIT_CHECK_FAILED : EXIT_OK;
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

void add_work_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<WorkOptions>();
  CLI::App* cmd = app.add_subcommand(
      "work", "Count shards of a --work-dir run as one worker of many (job arrays, any scheduler, shared filesystem)");
  cmd->add_option("dir", opt->path, "The work dir (made by `perftkit perft ... --work-dir DIR --prepare`)")->required();
  cmd->add_option("--worker", opt->worker, "This worker's part, 0..N-1 (e.g. $SLURM_ARRAY_TASK_ID)");
  cmd->add_option("--workers", opt->workers, "Parts the shards are divided into: shard i is part i mod N")
      ->check(CLI::Range(1u, 1'000'000u));
  cmd->add_option("--max-shards", opt->max_shards, "Stop after counting this many shards (0: no limit)")
      ->capture_default_str();
  cmd->add_flag("--wait", opt->wait, "Then wait until every shard of the part has a result (others' included)");
  cmd->add_flag("--progress", opt->progress,
                "The run's shards done, the share and the time left on stderr (default when it is a terminal)");
  cmd->add_option("-t,--threads", opt->threads, "CPU threads (default, or 0: all cores)")->check(CLI::Range(0u, 4096u));
  cmd->add_option("--backend", opt->backend, "auto | cpu | cuda | pipeline")
      ->transform(CLI::CheckedTransformer(BACKEND_NAMES, CLI::ignore_case))
      ->default_str("auto");
  cmd->add_option("--hash", opt->hash_mb,
                  "Transposition table in MB, kept from shard to shard (0: none; default: what the run needs, at most "
                  "a quarter of available memory)")
      ->check(table_megabytes());
  cmd->add_option("--seed", opt->seed, "Key set of the transposition table")->capture_default_str();
  cmd->add_option("--claim-timeout", opt->claim_timeout,
                  "Seconds without a heartbeat after which another host's claim on a shard is taken over")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([opt, &exit_code] { exit_code = run(*opt); });
}

}  // namespace perftkit
