#include "cli/status_command.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/cli_common.hpp"
#include "common/json_writer.hpp"
#include "common/progress_line.hpp"
#include "workdir/shard_claims.hpp"
#include "workdir/scan.hpp"

namespace perftkit {
namespace {

struct StatusOptions {
  std::string path;
  bool json = false;
  double claim_timeout = DEFAULT_CLAIM_TIMEOUT_SECONDS;
};

void print_text(const WorkDir& dir, const WorkScan& scan) {
  const WorkManifest& m = dir.manifest();
  std::printf("run: perft %d of %s\n", m.depth, m.fen.c_str());
  std::printf("shards: %zu (%llu positions at ply %d, %d %s below)\n", scan.shards,
              static_cast<unsigned long long>(m.frontier_positions), m.split_plies, m.remaining_depth(),
              m.remaining_depth() == 1 ? "ply" : "plies");
  std::printf("done: %zu of %zu (%.1f%%), %zu in flight, %zu to go, %zu corrupt, %zu stale claims\n", scan.done,
              scan.shards, scan.shards ? 100.0 * double(scan.done) / double(scan.shards) : 100.0, scan.in_flight,
              scan.shards - scan.done, scan.corrupt, scan.stale_claims);
  std::printf("nodes so far: %s\n", to_string_u128(scan.nodes).c_str());
  std::printf("rate: %.4g nodes/s over %s busy; one worker %.4g nodes/s\n", scan.run_rate(),
              format_duration(scan.busy_seconds).c_str(), scan.worker_rate());
  std::printf("eta: %s\n", format_duration(scan.eta_seconds()).c_str());
  for (const std::string& problem : scan.problems) std::printf("warning: %s\n", problem.c_str());
}

void print_json(const WorkDir& dir, const WorkScan& scan) {
  const WorkManifest& m = dir.manifest();
  JsonWriter json(std::cout);
  json.begin_object()
      .field("work_dir", dir.path())
      .field("fen", m.fen)
      .field("depth", m.depth)
      .field("split_plies", m.split_plies)
      .field("frontier_positions", static_cast<unsigned long long>(m.frontier_positions))
      .field("shards", static_cast<unsigned long long>(scan.shards))
      .field("done", static_cast<unsigned long long>(scan.done))
      .field("in_flight", static_cast<unsigned long long>(scan.in_flight))
      .field("missing", static_cast<unsigned long long>(scan.missing))
      .field("corrupt", static_cast<unsigned long long>(scan.corrupt))
      .field("stale_claims", static_cast<unsigned long long>(scan.stale_claims))
      .field("complete", scan.complete())
      .field("nodes", scan.nodes)
      .field("positions_done", static_cast<unsigned long long>(scan.positions_done))
      .field("busy_seconds", scan.busy_seconds)
      .field("worker_seconds", scan.worker_seconds)
      .field("nps", scan.run_rate())
      .field("worker_nps", scan.worker_rate());
  json.key("eta_seconds");
  if (scan.eta_seconds() < 0) json.null();
  else json.value(scan.eta_seconds());
  json.key("problems").begin_array();
  for (const std::string& problem : scan.problems) json.value(problem);
  json.end_array().end_object();
}

int run(const StatusOptions& opt) {
  try {
    const WorkDir dir = WorkDir::open(opt.path);
    const WorkScan scan = scan_work_dir(dir, opt.claim_timeout);
    if (opt.json) print_json(dir, scan);
    else print_text(dir, scan);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  return EXIT_OK;
}

}  // namespace

void add_status_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<StatusOptions>();
  CLI::App* cmd = app.add_subcommand("status", "Progress of a --work-dir run: shards done, total so far, rate, ETA");
  cmd->add_option("dir", opt->path, "The work dir")->required();
  cmd->add_flag("--json", opt->json, "Write the status as JSON");
  cmd->add_option("--claim-timeout", opt->claim_timeout, "Seconds without a heartbeat after which a claim is stale")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([opt, &exit_code] { exit_code = run(*opt); });
}

}  // namespace perftkit
