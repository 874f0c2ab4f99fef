#include "cli/diff_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_common.hpp"
#include "enginediff/diff_report.hpp"
#include "enginediff/engine_client.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct DiffOptions {
  std::string engine;
  std::string protocol = "uci";
  std::string fen = "startpos";
  std::vector<std::string> moves;
  int depth = 0;
  bool chess960 = false;
  bool json = false;
  double engine_timeout = 120;
  unsigned threads = 0;
};

EngineProtocol parse_protocol(const std::string& name) {
  if (name == "uci") return EngineProtocol::UCI;
  if (name == "perftree") return EngineProtocol::PERFTREE;
  if (name == "divide") return EngineProtocol::DIVIDE;
  throw UsageError("unknown --protocol '" + name + "' (uci, perftree or divide)");
}

int run_diff(const DiffOptions& opt) {
  EngineSettings settings;
  settings.command = opt.engine;
  settings.protocol = parse_protocol(opt.protocol);
  settings.timeout_seconds = opt.engine_timeout;

  DiffRequest request;
  request.root_fen = opt.fen == "startpos" ? START_FEN : opt.fen;
  const FenResult parsed = parse_fen(request.root_fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  settings.chess960 = request.chess960 = opt.chess960 || parsed->chess960;
  request.moves = split_moves(opt.moves);
  request.depth = opt.depth;
  request.threads = opt.threads;

  const std::unique_ptr<EngineClient> engine = make_engine_client(settings);
  DiffOutcome outcome;
  try {
    outcome = diff_with_engine(*engine, request);
  } catch (const EngineFailure& failure) {
    throw UsageError(failure.what());
  }
  if (outcome.failure && outcome.failure->kind == EngineFailureKind::CANNOT_START) throw UsageError(outcome.failure->message);
  if (opt.json) {
    JsonWriter json(std::cout);
    write_diff_json(json, outcome);
    std::cout << '\n';
  } else {
    print_diff_text(std::cout, outcome);
  }
  return outcome.verdict == DiffVerdict::AGREE ? EXIT_OK : EXIT_CHECK_FAILED;
}

}  // namespace

void add_diff_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand("diff", "Compare another move generator with perftkit and descend to the first wrong position");
  cmd->add_option("--engine", opt->engine, "The engine's command line, \"CMD [ARGS]\" (a template with {fen} {depth} {moves} for divide)")
      ->required();
  cmd->add_option("--protocol", opt->protocol, "uci (position + go perft), perftree (CMD DEPTH FEN [MOVES]) or divide (template)")
      ->check(CLI::IsMember({"uci", "perftree", "divide"}));
  cmd->add_option("--fen", opt->fen, "Root position (FEN, or startpos)");
  cmd->add_option("--moves", opt->moves, "UCI moves played from the root first (several arguments, or one: \"e2e4 e7e5\")");
  cmd->add_option("--depth", opt->depth, "Plies to compare at the root")->required()->check(CLI::Range(1, 20));
  cmd->add_flag("--chess960", opt->chess960, "Chess960: UCI_Chess960 on, castling written king-takes-rook");
  cmd->add_flag("--json", opt->json, "One JSON object on stdout instead of the text report");
  cmd->add_option("--engine-timeout", opt->engine_timeout, "Seconds an engine may take for one divide before it is killed")
      ->check(CLI::Range(0.1, 1e6));
  cmd->add_option("--threads", opt->threads, "Threads for perftkit's own divides (0: every core)");
  cmd->callback([opt, &exit_code] { exit_code = run_diff(*opt); });
}

}  // namespace perftkit
