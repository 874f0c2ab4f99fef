#include "cli/diff_command.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli_common.hpp"
#include "enginediff/diff_report.hpp"
#include "enginediff/engine_client.hpp"
#include "enginediff/random_positions.hpp"
#include "notation/fen.hpp"
#include "notation/suite.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

struct DiffOptions {
  std::string engine;
  std::string protocol = "uci";
  std::string fen = "startpos";
  std::vector<std::string> moves;
  int depth = 0;  // 0: not given
  bool chess960 = false;
  bool json = false;
  double engine_timeout = 120;
  unsigned threads = 0;
  std::vector<std::string> suites;
  std::optional<u128> max_nodes;
  std::size_t random = 0;
  std::uint64_t seed = 1;
};

EngineProtocol parse_protocol(const std::string& name) {
  if (name == "uci") return EngineProtocol::UCI;
  if (name == "perftree") return EngineProtocol::PERFTREE;
  return EngineProtocol::DIVIDE;
}

// One position to compare: its root, its depth and what to call it in the report.
struct DiffTask {
  std::string label;
  DiffRequest request;
};

// The tallies of a run over several positions.
struct DiffTally {
  std::size_t agree = 0, differ = 0, failed = 0, skipped = 0;
};

// The depth to compare c at: the deepest depth the suite lists with a count within
// --max-nodes, no deeper than --depth (counts grow with depth); --depth for a case that lists
// none; 0 when every listed count is above --max-nodes.
int suite_case_depth(const SuiteCase& c, const DiffOptions& opt) {
  if (c.expected.empty()) return opt.depth;
  int deepest = 0;
  for (const ExpectedCount& e : c.expected)
    if ((!opt.max_nodes || e.nodes <= *opt.max_nodes) && e.depth > deepest) deepest = e.depth;
  return opt.depth && deepest > opt.depth ? opt.depth : deepest;
}

std::vector<DiffTask> suite_tasks(const DiffOptions& opt, DiffTally& tally) {
  if (!opt.depth && !opt.max_nodes) throw UsageError("--suite needs --depth, --max-nodes or both");
  std::vector<DiffTask> tasks;
  for (const std::string& file : opt.suites) {
    const SuiteFileResult suite = read_suite(file);
    if (!suite) throw UsageError(suite.error);
    for (const SuiteError& e : suite->errors)
      std::cerr << "perftkit: " << e.source << ": " << e.reason << " (skipped)\n";
    for (const SuiteCase& c : suite->cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      const int depth = suite_case_depth(c, opt);
      if (!parsed || depth == 0) {
        std::cerr << "perftkit: " << c.source << ": "
                  << (parsed ? "every listed count is above --max-nodes" : parsed.error) << " (skipped)\n";
        ++tally.skipped;
        continue;
      }
      DiffTask task{c.name.empty() ? c.source : c.name, {}};
      task.request.root_fen = to_fen(parsed->position);
      task.request.depth = depth;
      task.request.chess960 = opt.chess960 || parsed->chess960;
      tasks.push_back(std::move(task));
    }
  }
  return tasks;
}

std::vector<DiffTask> random_tasks(const DiffOptions& opt) {
  if (!opt.depth) throw UsageError("--random needs --depth");
  std::vector<DiffTask> tasks;
  std::size_t index = 0;
  for (const RandomPosition& p : random_positions(opt.random, opt.seed, opt.chess960)) {
    DiffTask task{"random " + std::to_string(++index) + " (seed " + std::to_string(opt.seed) + ", " + p.start + ", " +
                      std::to_string(p.plies) + " plies)",
                  {}};
    task.request.root_fen = p.fen;
    task.request.depth = opt.depth;
    task.request.chess960 = opt.chess960;
    tasks.push_back(std::move(task));
  }
  return tasks;
}

DiffTask single_task(const DiffOptions& opt) {
  if (!opt.depth) throw UsageError("--depth is required");
  DiffTask task;
  task.request.root_fen = opt.fen == "startpos" ? std::string(START_FEN) : opt.fen;
  const FenResult parsed = parse_fen(task.request.root_fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  task.request.chess960 = opt.chess960 || parsed->chess960;
  task.request.moves = split_moves(opt.moves);
  task.request.depth = opt.depth;
  return task;
}

DiffOutcome run_task(EngineClient& engine, const DiffTask& task, DiffTally& tally) {
  const DiffOutcome outcome = diff_with_engine(engine, task.request);
  if (outcome.failure && outcome.failure->kind == EngineFailureKind::CANNOT_START)
    throw UsageError(outcome.failure->message);
  // Divide lines in another notation: the format is the problem, wherever it shows (exit 2).
  if (outcome.failure && outcome.failure->kind == EngineFailureKind::OTHER_NOTATION)
    throw UsageError(outcome.failure->message);
  if (outcome.verdict == DiffVerdict::AGREE) ++tally.agree;
  else if (outcome.verdict == DiffVerdict::DIFFER) ++tally.differ;
  else ++tally.failed;
  return outcome;
}

int run_diff(const DiffOptions& opt) {
  if (!opt.suites.empty() && opt.random) throw UsageError("--suite and --random do not go together");
  EngineSettings settings;
  settings.command = opt.engine;
  settings.protocol = parse_protocol(opt.protocol);
  settings.timeout_seconds = opt.engine_timeout;

  DiffTally tally;
  const bool batch = !opt.suites.empty() || opt.random;
  std::vector<DiffTask> tasks = !opt.suites.empty() ? suite_tasks(opt, tally)
                                : opt.random        ? random_tasks(opt)
                                                    : std::vector<DiffTask>{single_task(opt)};
  for (const DiffTask& task : tasks) settings.chess960 = settings.chess960 || task.request.chess960;
  const std::unique_ptr<EngineClient> engine = make_engine_client(settings);

  std::optional<JsonWriter> json;
  if (opt.json) json.emplace(std::cout);
  if (json && batch) json->begin_object().key("positions").begin_array();
  for (DiffTask& task : tasks) {
    task.request.threads = opt.threads;
    const DiffOutcome outcome = run_task(*engine, task, tally);
    if (json) {
      write_diff_json(*json, outcome, task.label);
    } else if (batch && outcome.verdict == DiffVerdict::AGREE) {
      std::cout << task.label << ": agree, " << to_string_u128(outcome.levels.front().perftkit_nodes)
                << " nodes at depth " << task.request.depth << '\n';
    } else {
      print_diff_text(std::cout, outcome, task.label);
    }
    std::cout.flush();
  }
  if (json && batch) {
    json->end_array();
    json->field("agree", tally.agree)
        .field("differ", tally.differ)
        .field("engine_failed", tally.failed)
        .field("skipped", tally.skipped);
    json->end_object();
  }
  if (json) std::cout << '\n';
  if (batch && !json)
    std::cout << tasks.size() << (tasks.size() == 1 ? " position: " : " positions: ") << tally.agree << " agree, "
              << tally.differ << " differ, " << tally.failed << " engine failures"
              << (tally.skipped ? ", " + std::to_string(tally.skipped) + " skipped" : "") << '\n';
  return tally.differ || tally.failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

}  // namespace

void add_diff_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare another move generator with perftkit and descend to the first wrong position");
  cmd->add_option("--engine", opt->engine,
                  "The engine's command line, \"CMD [ARGS]\" (a template with {fen} {depth} {moves} for divide)")
      ->required();
  cmd->add_option("--protocol", opt->protocol,
                  "uci (position + go perft), perftree (CMD DEPTH FEN [MOVES]) or divide (template)")
      ->check(CLI::IsMember({"uci", "perftree", "divide"}));
  CLI::Option* fen = cmd->add_option("--fen", opt->fen, "Root position (FEN, or startpos)");
  CLI::Option* moves = cmd->add_option(
      "--moves", opt->moves, "UCI moves played from the root first (several arguments, or one: \"e2e4 e7e5\")");
  cmd->add_option("--depth", opt->depth, "Plies to compare at the root (with --suite: the deepest listed depth to use)")
      ->check(CLI::Range(1, 20));
  cmd->add_flag("--chess960", opt->chess960,
                "Chess960: UCI_Chess960 on, castling king-takes-rook; --random adds Chess960 starts");
  cmd->add_flag("--json", opt->json, "JSON on stdout instead of the text report");
  cmd->add_option("--engine-timeout", opt->engine_timeout,
                  "Seconds an engine may take for one divide before it is killed")
      ->check(CLI::Range(0.1, 1e6));
  cmd->add_option("--threads", opt->threads, "Threads for perftkit's own divides (0: every core)");
  cmd->add_option("--suite", opt->suites,
                  "Compare every position of these suites (EPD ;D lines or id/epd/perft blocks)")
      ->check(CLI::ExistingFile)
      ->excludes(fen)
      ->excludes(moves);
  cmd->add_option_function<unsigned long long>(
      "--max-nodes", [opt](unsigned long long n) { opt->max_nodes = u128(n); },
      "With --suite: the deepest listed depth whose count is at most N");
  cmd->add_option("--random", opt->random,
                  "Compare N random positions (biased to en passant, castling, promotions, checks)")
      ->excludes(fen)
      ->excludes(moves);
  cmd->add_option("--seed", opt->seed, "Seed of --random: the same seed gives the same positions");
  cmd->callback([opt, &exit_code] { exit_code = run_diff(*opt); });
}

}  // namespace perftkit
