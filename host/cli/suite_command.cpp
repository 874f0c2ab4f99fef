#include "cli/suite_command.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_common.hpp"
#include "common/output_file.hpp"
#include "notation/fen.hpp"
#include "notation/position_list.hpp"

namespace perftkit {
namespace {

struct SuiteOptions {
  std::vector<std::string> files;
  std::string output = "-";
  int depth = 1;
  std::optional<u128> max_nodes;
  std::string input = "auto";
  std::string positions = "all";
  unsigned threads = 0;
};

std::string read_whole(const std::string& file) {
  if (file == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

PositionList read_positions(const SuiteOptions& opt, const std::string& file) {
  const std::string text = read_whole(file);
  const std::string name = file == "-" ? "stdin" : file;
  const bool pgn = opt.input == "pgn" || (opt.input == "auto" && looks_like_pgn(name, text));
  return pgn ? positions_of_pgn(text, name, opt.positions == "final") : positions_of_lines(text, name);
}

// ";D1 n ;D2 n ..." up to depth, leaving out every depth whose count is above max_nodes.
std::string suite_counts(const Position& pos, const SuiteOptions& opt) {
  std::string counts;
  for (int depth = 1; depth <= opt.depth; ++depth) {
    PerftRequest request;
    request.root = pos;
    request.depth = depth;
    request.threads = opt.threads;
    request.backend = Backend::CPU;
    const u128 nodes = run_perft(request).nodes;
    if (opt.max_nodes && nodes > *opt.max_nodes) break;
    counts += " ;D" + std::to_string(depth) + " " + to_string_u128(nodes);
  }
  return counts;
}

int run_suite(const SuiteOptions& opt) {
  OutputFile out(opt.output);     // whole or absent: an interrupted suite leaves no half of it
  std::set<std::string> written;  // FENs already in the suite: a position once
  std::size_t rejected = 0, repeated = 0;
  for (const std::string& file : opt.files) {
    const PositionList list = read_positions(opt, file);
    for (const PositionListError& e : list.errors)
      std::cerr << "perftkit: " << e.source << ": " << e.reason << " (skipped)\n";
    rejected += list.errors.size();
    for (const ListedPosition& p : list.positions) {
      const std::string fen = to_fen(p.position);
      if (!written.insert(fen).second) {
        ++repeated;
        continue;
      }
      const std::string counts = suite_counts(p.position, opt);
      if (counts.empty()) continue;  // even perft(1) is above --max-nodes
      out.write(fen + counts + '\n');
    }
  }
  out.commit();
  std::cerr << "suite: " << written.size() << " positions"
            << (repeated ? ", " + std::to_string(repeated) + " repeats left out" : "")
            << (rejected ? ", " + std::to_string(rejected) + " rejected" : "") << '\n';
  return rejected ? EXIT_CHECK_FAILED : EXIT_OK;
}

}  // namespace

void add_suite_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<SuiteOptions>();
  CLI::App* cmd = app.add_subcommand("suite", "Write a perft suite (FEN ;D1 n ;D2 n ...) for your own positions");
  cmd->add_option("files", opt->files, "FEN/EPD lines or PGN games ('-' for standard input)")->required();
  cmd->add_option("-o,--output", opt->output, "The suite file ('-': standard output)");
  cmd->add_option("--depth", opt->depth, "Counts D1 to D(depth)")->required()->check(CLI::Range(1, 12));
  cmd->add_option_function<unsigned long long>(
      "--max-nodes", [opt](unsigned long long n) { opt->max_nodes = u128(n); },
      "Leave out every depth whose count is above N");
  cmd->add_option("--input", opt->input, "auto (PGN by name or first token), fen (FEN/EPD lines) or pgn")
      ->check(CLI::IsMember({"auto", "fen", "pgn"}));
  cmd->add_option("--positions", opt->positions, "PGN: all (every ply) or final (each game's last position)")
      ->check(CLI::IsMember({"all", "final"}));
  cmd->add_option("--threads", opt->threads, "Threads for the counts (0: every core)");
  cmd->callback([opt, &exit_code] { exit_code = run_suite(*opt); });
}

}  // namespace perftkit
