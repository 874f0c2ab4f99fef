#include "cli/perft_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/cli_common.hpp"
#include "notation/fen.hpp"
#include "perft/perft_setup.hpp"
#include "common/json_writer.hpp"
#include "common/units_progress_line.hpp"
#include "common/work_progress.hpp"
#include "perft/stats_output.hpp"
#include "common/system_memory.hpp"
#include "workdir/shard_claims.hpp"
#include "notation/uci.hpp"
#include "workdir/run.hpp"

namespace perftkit {
namespace {

struct PerftOptions {
  std::string fen = "startpos";
  int depth = 1;
  std::vector<std::string> moves;
  bool divide = false;
  bool each = false;  // perft(1..depth), a line each
  unsigned threads = 0;
  Backend backend = Backend::AUTO;
  bool json = false;
  bool no_merge = false;
  bool chess960 = false;
  bool stats = false;
  std::optional<std::size_t> hash_mb;  // unset: default_hash_bytes()
  std::uint64_t seed = 1;
  bool cross_check = false;
  std::string work_dir;  // empty: count in memory
  std::size_t shards = 0;
  int split_depth = 0;
  bool prepare = false;
  bool progress = false;
  double claim_timeout = DEFAULT_CLAIM_TIMEOUT_SECONDS;
};

void print_text(const PerftReport& report, const PerftOptions& opt) {
  if (opt.stats) {
    if (!report.divide.empty()) {
      print_stats_divide(std::cout, report.divide, report.stats);
      std::cout << '\n';
    }
    print_stats_summary(std::cout, report.stats);
  } else {
    for (const DivideEntry& entry : report.divide)
      std::cout << entry.uci << ": " << to_string_u128(entry.nodes) << '\n';
    if (!report.divide.empty()) std::cout << '\n';
  }
  std::cout << "Nodes searched: " << to_string_u128(report.nodes) << '\n';
}

void print_json(const PerftReport& report, const PerftOptions& opt, const PerftRequest& req) {
  JsonWriter json(std::cout);
  json.begin_object()
      .field("fen", to_fen(req.root))
      .field("depth", opt.depth)
      .field("nodes", report.nodes)
      .field("seconds", report.seconds)
      .field("nps", report.seconds > 0 ? double(report.nodes) / report.seconds : 0.0)
      .field("backend", report.backend)
      .field("threads", req.threads)
      .field("merge_transpositions", !opt.no_merge)
      .field("hash_mb", static_cast<unsigned long long>(hash_table_bytes(req) >> 20))
      .field("seed", static_cast<unsigned long long>(opt.seed));
  // Objects of counts come twice: numbers, then "NAME_string" with the same counts as
  // decimal strings (exact in jq and JavaScript above 2^53).
  for (const CountsAs as : {CountsAs::NUMBERS, CountsAs::STRINGS}) {
    const std::string suffix = as == CountsAs::STRINGS ? "_string" : "";
    if (opt.stats) {
      json.key("stats" + suffix);
      write_stats_json(json, report.stats, as);
    }
    if (!opt.divide) continue;
    json.key("divide" + suffix).begin_object();
    for (const DivideEntry& entry : report.divide) {
      json.key(entry.uci);
      if (opt.stats) write_stats_json(json, entry.stats, as);
      else if (as == CountsAs::NUMBERS) json.value(entry.nodes);
      else json.value(std::string_view(to_string_u128(entry.nodes)));
    }
    json.end_object();
  }
  json.end_object();
}

// Runs the perft again with the next key set and fails on any difference: the node count,
// and with --stats every counter.
void cross_check(PerftRequest req, const PerftReport& first) {
  req.hash_seed += 1;
  const PerftReport second = run_perft(req);
  const auto differ = [&](std::string_view what, u128 a, u128 b) {
    if (a != b)
      throw CheckFailed("--cross-check: seed " + std::to_string(req.hash_seed - 1) + " gives " + to_string_u128(a) +
                        " " + std::string(what) + " but seed " + std::to_string(req.hash_seed) + " gives " +
                        to_string_u128(b));
  };
  differ("nodes", first.nodes, second.nodes);
  if (req.stats)
    for (int f = 0; f < STAT_FIELD_NB; ++f)
      differ(stat_json_name(StatField(f)), first.stats.count[f], second.stats.count[f]);
  std::fprintf(stderr, "cross-check: seeds %llu and %llu agree\n", static_cast<unsigned long long>(req.hash_seed - 1),
               static_cast<unsigned long long>(req.hash_seed));
}

// --work-dir: the run as durable shards (host/workdir/run.hpp). Divide, statistics,
// cross-checks and unmerged counting are not kept per shard, so they are refused.
int run_in_work_dir(const PerftOptions& opt, const ParsedPosition& root) {
  if (opt.divide || opt.cross_check || opt.no_merge)
    throw UsageError(
        "--work-dir counts totals (nodes, or with --stats every leaf counter): --divide, --cross-check and "
        "--no-merge are not supported with it");
  WorkDirPerft request;
  request.path = opt.work_dir;
  request.split.root = root.position;
  request.split.depth = opt.depth;
  request.split.shards = opt.shards;
  request.split.split_plies = opt.split_depth;
  request.split.stats = opt.stats;
  request.settings.threads = opt.threads;
  request.settings.backend = opt.backend;
  request.settings.hash_seed = opt.seed;
  request.hash_mb = opt.hash_mb;
  request.claim_timeout_seconds = opt.claim_timeout;
  request.progress = opt.progress || ::isatty(STDERR_FILENO);
  request.prepare_only = opt.prepare;
  request.json = opt.json;
  try {
    return perft_in_work_dir(request);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  } catch (const std::logic_error& e) {
    throw UsageError(e.what());
  }
}

// --each: perft(1) to perft(depth), a line each with its time, as engine authors print them
// while they look for the first depth at which a count goes wrong; with --json, one object
// whose "depths" array holds each depth's nodes and seconds.
int run_each_depth(const PerftOptions& opt, PerftRequest req) {
  if (opt.divide || opt.stats || opt.cross_check)
    throw UsageError("--each prints one count per depth; it does not combine with --divide, --stats or --cross-check");
  std::optional<JsonWriter> json;
  if (opt.json) {
    json.emplace(std::cout);
    json->begin_object().field("fen", to_fen(req.root)).key("depths").begin_array();
  }
  for (int depth = 1; depth <= opt.depth; ++depth) {
    req.depth = depth;
    PerftReport report;
    try {
      report = run_perft(req);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
    if (json) {
      json->begin_object()
          .field("depth", depth)
          .field("nodes", report.nodes)
          .field("seconds", report.seconds)
          .field("backend", report.backend)
          .end_object();
      continue;
    }
    std::printf("perft(%d) = %s  (%.3f s)\n", depth, to_string_u128(report.nodes).c_str(), report.seconds);
    std::fflush(stdout);
  }
  if (json) json->end_array().end_object();
  return EXIT_OK;
}

int run(const PerftOptions& opt) {
  const ParsedPosition root = perft_root(opt.fen, opt.moves);
  if (!opt.work_dir.empty()) return run_in_work_dir(opt, root);
  if (opt.shards || opt.split_depth || opt.prepare)
    throw UsageError("--shards, --split-depth and --prepare need --work-dir");
  PerftRequest req;
  req.root = root.position;
  req.depth = opt.depth;
  req.divide = opt.divide;
  req.threads = threads_or_all_cores(opt.threads);
  req.backend = opt.backend;
  req.chess960 = opt.chess960 || root.chess960;
  req.merge_transpositions = !opt.no_merge;
  req.stats = opt.stats;
  const std::size_t table_mb = hash_table_mb(req, opt.hash_mb);
  req.hash_bytes = table_mb << 20;
  req.hash_seed = opt.seed;
  const bool gpu = runs_on_gpu(req);
  if (hash_table_bytes(req) && opt.depth > 3)
    std::fprintf(stderr, "hash: %zu MB%s%s, seed %llu\n", table_mb, gpu ? " per device" : "",
                 opt.hash_mb ? (table_mb < *opt.hash_mb ? " (less than asked: all that this depth can fill)" : "")
                 : gpu       ? " (default: what this depth needs, at most a quarter of the device's free memory)"
                             : " (default: what this depth needs, at most a quarter of available memory)",
                 static_cast<unsigned long long>(opt.seed));
  // Statistics on a GPU count without a table as yet: say so rather than take --hash without
  // a word.
  if (opt.hash_mb && *opt.hash_mb > 0 && opt.stats && gpu)
    std::fprintf(stderr,
                 "hash: --hash is not used: statistics on a GPU count without a table (the CPU backend and "
                 "the pipeline on OpenMP have one: --backend cpu or pipeline)\n");
  if (opt.each) return run_each_depth(opt, req);
  WorkProgress units;
  std::optional<UnitsProgressLine> progress_line;
  if (opt.progress || ::isatty(STDERR_FILENO)) {
    req.progress = &units;
    progress_line.emplace(units, "perft " + std::to_string(opt.depth), "units", ::isatty(STDERR_FILENO) != 0);
  }
  PerftReport report;
  try {
    report = run_perft(req);
    if (progress_line) progress_line->stop();
    if (opt.cross_check) cross_check(req, report);
  } catch (const CheckFailed&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (!report.cpu_fallback.empty())
    std::fprintf(stderr, "%s: counted on the CPU core instead\n", report.cpu_fallback.c_str());
  if (const StatsTableUse& use = report.stats_table; use.probes && opt.depth > 3) {
    // (The CPU core counts its stores; the pipeline's kernels do not.)
    std::fprintf(stderr, "statistics table: %.1f%% of %llu probes hit", 100.0 * double(use.hits) / double(use.probes),
                 static_cast<unsigned long long>(use.probes));
    if (report.backend == "cpu")
      std::fprintf(stderr, ", %llu subtrees stored", static_cast<unsigned long long>(use.stores));
    std::fprintf(stderr, "\n");
  }
  if (opt.json) print_json(report, opt, req);
  else print_text(report, opt);
  std::fprintf(stderr, "time %.3f s, %.4g nodes/s (%s, %u thread%s)\n", report.seconds,
               report.seconds > 0 ? double(report.nodes) / report.seconds : 0.0, report.backend.c_str(), req.threads,
               req.threads == 1 ? "" : "s");
  return EXIT_OK;
}

}  // namespace

void add_perft_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<PerftOptions>();
  CLI::App* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree (exact, 128-bit)");
  cmd->add_option("--fen", opt->fen, "Root position: FEN (4-6 fields) or 'startpos'")->capture_default_str();
  cmd->add_option("-d,--depth", opt->depth, "Depth in plies")->required()->check(CLI::Range(0, 64));
  cmd->add_option("--moves", opt->moves,
                  "UCI moves played from the FEN first: e2e4 e7e5 ..., or one argument \"e2e4 e7e5\"");
  cmd->add_flag("--divide", opt->divide, "Print the node count under each root move (Stockfish style)");
  cmd->add_flag("--each", opt->each, "Print perft(1) to perft(depth), a line each with its time");
  cmd->add_option("-t,--threads", opt->threads, "CPU threads (default, or 0: all cores)")->check(CLI::Range(0u, 4096u));
  cmd->add_option("--backend", opt->backend, "auto | cpu | cuda | pipeline (the GPU's pipeline on OpenMP)")
      ->transform(CLI::CheckedTransformer(BACKEND_NAMES, CLI::ignore_case))
      ->default_str("auto");
  cmd->add_flag("--json", opt->json, "Write the result as JSON on stdout");
  cmd->add_flag("--no-merge", opt->no_merge,
                "Do not merge identical frontier positions (measures pure move-generation speed)");
  cmd->add_flag("--chess960", opt->chess960, "Write castling moves as king-takes-rook (e1h1)");
  cmd->add_flag("--stats", opt->stats,
                "Count captures, e.p., castles, promotions, checks (discovered, double), mates, stalemates, "
                "dead positions and the 50/75-move clocks at the leaves (every backend)");
  cmd->add_option("--hash", opt->hash_mb,
                  "Transposition table of subtree counts, in MB (0: none; default: what the depth needs, at most a "
                  "quarter of available memory, or per GPU a quarter of its free memory); node counts on every "
                  "backend, --stats on the CPU backend and the pipeline on OpenMP")
      ->check(table_megabytes());
  cmd->add_option("--seed", opt->seed, "Key set of the transposition table (independent keys per seed)")
      ->capture_default_str();
  cmd->add_flag("--cross-check", opt->cross_check,
                "Run twice with two independent key sets and fail (exit 1) on any difference");
  cmd->add_option("--work-dir", opt->work_dir,
                  "Run as durable shards in this directory (shared by every worker); the same command again "
                  "resumes it. Under mpirun the ranks share the shards. Counts nodes, or with --stats every leaf "
                  "counter")
      ->group("Work dir (long runs)");
  cmd->add_option(
         "--shards", opt->shards,
         "Number of shards (default " + std::to_string(DEFAULT_SHARDS) + "; fewer when the split has fewer positions)")
      ->check(CLI::Range(std::size_t(1), MAX_SHARDS))
      ->group("Work dir (long runs)");
  cmd->add_option("--split-depth", opt->split_depth,
                  "Plies from the root to the shards' positions (default: the shallowest ply with " +
                      std::to_string(AUTO_SPLIT_POSITIONS_PER_SHARD) + " positions per shard)")
      ->check(CLI::Range(1, 63))
      ->group("Work dir (long runs)");
  cmd->add_flag("--prepare", opt->prepare, "Write the shards and the manifest, count nothing (for `perftkit work`)")
      ->group("Work dir (long runs)");
  cmd->add_flag("--progress", opt->progress,
                "Progress on stderr (default when it is a terminal): the share of the CPU backend's units done and "
                "the time left; with --work-dir, the shards done");
  cmd->add_option("--claim-timeout", opt->claim_timeout,
                  "Seconds without a heartbeat after which another host's claim on a shard is taken over")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group("Work dir (long runs)");
  cmd->callback([opt, &exit_code] { exit_code = run(*opt); });
}

}  // namespace perftkit
