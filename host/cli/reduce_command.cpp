#include "cli/reduce_command.hpp"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_common.hpp"
#include "common/json_writer.hpp"
#include "perft/stats_output.hpp"
#include "workdir/shard_claims.hpp"
#include "workdir/scan.hpp"

namespace perftkit {
namespace {

struct ReduceOptions {
  std::string path;
  bool json = false;
};

// "N what", and the first few of the shard ids after a colon: "2 missing: 20 21".
std::string labelled_ids(const std::vector<std::uint32_t>& ids, const char* what) {
  constexpr std::size_t SHOWN = 20;
  std::string text = std::to_string(ids.size()) + " " + what;
  for (std::size_t i = 0; i < ids.size() && i < SHOWN; ++i) text += (i ? " " : ": ") + std::to_string(ids[i]);
  if (ids.size() > SHOWN) text += " ...";
  return text;
}

int run(const ReduceOptions& opt) {
  std::optional<WorkDir> dir;
  WorkScan scan;
  try {
    dir.emplace(WorkDir::open(opt.path));
    scan = scan_work_dir(*dir, DEFAULT_CLAIM_TIMEOUT_SECONDS);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  for (const std::string& problem : scan.problems) std::fprintf(stderr, "perftkit: warning: %s\n", problem.c_str());
  // Each shard has one result file, so a complete scan has counted every position once.
  const bool consistent = !scan.complete() || scan.positions_done == dir->manifest().frontier_positions;
  if (opt.json) {
    JsonWriter json(std::cout);
    json.begin_object()
        .field("work_dir", dir->path())
        .field("fen", dir->manifest().fen)
        .field("depth", dir->manifest().depth)
        .field("shards", static_cast<unsigned long long>(scan.shards))
        .field("counted", static_cast<unsigned long long>(scan.done))
        .field("complete", scan.complete() && consistent);
    json.field("nodes", scan.complete() && consistent ? std::optional<u128>(scan.nodes) : std::nullopt);
    json.field("partial_nodes", scan.nodes);
    if (dir->manifest().stats && scan.complete() && consistent) {  // a statistics run: every leaf counter
      write_stats_fields(json, scan.stats);
    }
    json.end_object();
  } else if (scan.complete() && consistent) {
    std::printf("shards: %zu, each counted once\n", scan.shards);
    if (dir->manifest().stats) print_stats_summary(std::cout, scan.stats);
    std::cout << "Nodes searched: " << to_string_u128(scan.nodes) << '\n';
  }
  if (!consistent) {
    std::fprintf(stderr, "perftkit: the results cover %llu positions, the manifest lists %llu\n",
                 static_cast<unsigned long long>(scan.positions_done),
                 static_cast<unsigned long long>(dir->manifest().frontier_positions));
    return EXIT_CHECK_FAILED;
  }
  if (!scan.complete()) {
    std::fprintf(stderr, "perftkit: incomplete: %zu of %zu shards have a valid result (%s; %s); partial sum %s\n",
                 scan.done, scan.shards, labelled_ids(scan.missing_ids, "missing").c_str(),
                 labelled_ids(scan.corrupt_ids, "corrupt").c_str(), to_string_u128(scan.nodes).c_str());
    return EXIT_CHECK_FAILED;
  }
  return EXIT_OK;
}

}  // namespace

void add_reduce_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<ReduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reduce", "Exact total of a --work-dir run once every shard has one valid result (exit 1 before that)");
  cmd->add_option("dir", opt->path, "The work dir")->required();
  cmd->add_flag("--json", opt->json, "Write the total as JSON");
  cmd->callback([opt, &exit_code] { exit_code = run(*opt); });
}

}  // namespace perftkit
