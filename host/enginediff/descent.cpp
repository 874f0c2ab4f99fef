#include "enginediff/descent.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "common/errors.hpp"
#include "enginediff/move_rules.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "perft/driver.hpp"

namespace perftkit {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

u128 difference(u128 a, u128 b) { return a > b ? a - b : b - a; }

// Compares the two divides of pos; fills the level's mismatches and sums.
void compare(const Position& pos, const PerftReport& ours, const EngineDivide& theirs, bool chess960,
             DiffLevel& level) {
  std::map<std::uint16_t, u128> engine_counts;  // by the move's raw encoding
  for (const DivideLine& line : theirs.moves) {
    level.engine_nodes += line.count;
    const std::optional<Move> move = parse_uci_move(pos, line.move);
    if (!move || engine_counts.count(move->raw())) {
      // Not legal here, or a second spelling of a move already listed (both castling forms).
      level.extra.push_back(
          {line.move, line.count, move ? "the same move listed twice" : rule_of_illegal_move(pos, line.move)});
      continue;
    }
    engine_counts[move->raw()] = line.count;
  }
  for (const DivideEntry& entry : ours.divide) {
    const auto found = engine_counts.find(entry.move.raw());
    const std::string uci = to_uci(entry.move, chess960);
    if (found == engine_counts.end()) {
      level.missing.push_back({uci, entry.nodes, rule_of_legal_move(pos, entry.move)});
    } else if (found->second != entry.nodes) {
      level.differing.push_back({uci, entry.nodes, found->second});
    }
  }
  std::stable_sort(level.differing.begin(), level.differing.end(), [](const CountMismatch& a, const CountMismatch& b) {
    return difference(a.perftkit, a.engine) > difference(b.perftkit, b.engine);
  });
}

}  // namespace

DiffOutcome diff_with_engine(EngineClient& engine, const DiffRequest& request) {
  const FenResult parsed = parse_fen(request.root_fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  Position pos = parsed->position;
  if (const auto illegal = play_uci_moves(pos, request.moves))
    throw UsageError("move " + std::to_string(illegal->number) + " '" + illegal->text + "' is not legal in " +
                     to_fen(pos));
  const bool chess960 = request.chess960 || parsed->chess960;

  DiffOutcome outcome;
  std::vector<std::string> path = request.moves;
  for (int depth = request.depth; depth >= 1; --depth) {
    DiffLevel level;
    level.path = path;
    level.fen = to_fen(pos);
    level.depth = depth;

    const Clock::time_point engine_start = Clock::now();
    EngineDivide theirs;
    try {
      ++outcome.engine_calls;
      theirs = engine.divide(request.root_fen, path, depth);
    } catch (const EngineFailure& failure) {
      outcome.engine_seconds += seconds_since(engine_start);
      outcome.verdict = DiffVerdict::ENGINE_FAILED;
      outcome.failure = EngineFailureReport{failure.kind, failure.what(), failure.last_lines, level.fen, path, depth};
      return outcome;
    }
    outcome.engine_seconds += seconds_since(engine_start);

    const Clock::time_point perftkit_start = Clock::now();
    PerftRequest ours_request;
    ours_request.root = pos;
    ours_request.depth = depth;
    ours_request.divide = true;
    ours_request.chess960 = chess960;
    ours_request.threads = request.threads;
    ours_request.backend = Backend::CPU;
    const PerftReport ours = run_perft(ours_request);
    outcome.perftkit_seconds += seconds_since(perftkit_start);

    level.perftkit_nodes = ours.nodes;
    level.engine_total = theirs.total;
    compare(pos, ours, theirs, chess960, level);
    if (theirs.total && *theirs.total != level.engine_nodes && outcome.note.empty())
      outcome.note = "the engine's total " + to_string_u128(*theirs.total) + " is not the sum of its move lines (" +
                     to_string_u128(level.engine_nodes) + ") at " + level.fen;

    const bool lists_differ = !level.missing.empty() || !level.extra.empty();
    if (lists_differ || (depth == 1 && !level.differing.empty())) {
      outcome.verdict = DiffVerdict::DIFFER;
      outcome.levels.push_back(std::move(level));
      return outcome;
    }
    if (level.differing.empty()) {
      // Agreement at the root is the answer; below it, the engine contradicts itself.
      if (!outcome.levels.empty()) {
        outcome.verdict = DiffVerdict::DIFFER;
        if (outcome.note.empty())
          outcome.note = "the engine's count for " + outcome.levels.back().descend_into +
                         " one level up is not the sum of its own divide here";
      }
      outcome.levels.push_back(std::move(level));
      return outcome;
    }
    level.descend_into = level.differing.front().move;
    const std::optional<Move> next = parse_uci_move(pos, level.descend_into);
    pos = make_move(pos, *next);
    path.push_back(level.descend_into);
    outcome.levels.push_back(std::move(level));
  }
  return outcome;
}

}  // namespace perftkit
