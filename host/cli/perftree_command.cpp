#include "cli/perftree_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/cli_common.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

struct PerftreeOptions {
  int depth = 1;
  std::string fen;
  std::string moves;  // space-separated UCI moves, as perftree passes them
};

// perftree's format: `move count` per legal move, a blank line, the total.
void run_perftree(const PerftreeOptions& opt) {
  const FenResult parsed = parse_fen(opt.fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  PerftRequest request;
  request.root = parsed->position;
  if (const auto illegal = play_uci_moves(request.root, split_moves({opt.moves})))
    throw UsageError("move " + std::to_string(illegal->number) + " '" + illegal->text + "' is not legal in " +
                     to_fen(request.root));
  request.depth = opt.depth;
  request.divide = true;
  request.chess960 = parsed->chess960;
  const PerftReport report = run_perft(request);
  for (const DivideEntry& entry : report.divide) std::cout << entry.uci << ' ' << to_string_u128(entry.nodes) << '\n';
  std::cout << '\n' << to_string_u128(report.nodes) << '\n';
}

}  // namespace

void add_perftree_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<PerftreeOptions>();
  CLI::App* cmd =
      app.add_subcommand("perftree", "perftree's engine interface: divide of FEN after MOVES, then the total");
  cmd->add_option("depth", opt->depth, "Plies below the position (1 or more)")->required()->check(CLI::Range(1, 30));
  cmd->add_option("fen", opt->fen, "The position (FEN, or startpos)")->required();
  cmd->add_option("moves", opt->moves, "UCI moves played first, in one argument: \"e2e4 e7e5\"");
  cmd->callback([opt, &exit_code] {
    run_perftree(*opt);
    exit_code = EXIT_OK;
  });
}

}  // namespace perftkit
