// The descent: compare an engine's divide with perftkit's, go into the move whose counts
// differ most with one ply less, and stop at the first position whose move lists differ
// (or whose depth-1 counts do). One engine divide per level for a single bug.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/uint128.hpp"
#include "enginediff/engine_client.hpp"
#include "enginediff/engine_failure.hpp"
#include "perftkit/position.hpp"

namespace perftkit {

struct DiffRequest {
  std::string root_fen;            // as sent to the engine (after --fen, before --moves)
  std::vector<std::string> moves;  // played from root_fen first (UCI, as perftkit writes them)
  int depth = 1;
  bool chess960 = false;  // castling written king-takes-rook
  unsigned threads = 0;   // perftkit's divides: 0 = every core
};

// A move both sides list, with different counts.
struct CountMismatch {
  std::string move;
  u128 perftkit = 0;
  u128 engine = 0;
};

// A move one side lists and the other does not, with the rule involved.
struct MoveMismatch {
  std::string move;
  u128 count = 0;    // the lister's count
  std::string rule;  // "" when perftkit cannot name one
};

struct DiffLevel {
  std::vector<std::string> path;  // from the root to this position
  std::string fen;                // the position (perftkit's reading)
  int depth = 0;
  u128 perftkit_nodes = 0;
  u128 engine_nodes = 0;              // the sum of its move lines
  std::optional<u128> engine_total;   // the total it printed
  std::vector<MoveMismatch> missing;  // legal moves the engine does not list
  std::vector<MoveMismatch> extra;    // moves the engine lists that are not legal
  std::vector<CountMismatch> differing;
  std::string descend_into;  // the move taken to the next level, if any
};

enum class DiffVerdict { AGREE, DIFFER, ENGINE_FAILED };

struct EngineFailureReport {
  EngineFailureKind kind;
  std::string message;
  std::vector<std::string> last_lines;
  std::string fen;                // the position the engine was asked about
  std::vector<std::string> path;  // its moves from the root
  int depth = 0;
};

struct DiffOutcome {
  DiffVerdict verdict = DiffVerdict::AGREE;
  std::vector<DiffLevel> levels;  // root first; the last is where they part
  std::optional<EngineFailureReport> failure;
  std::string note;  // an inconsistency in the engine's own numbers, if seen
  int engine_calls = 0;
  double engine_seconds = 0;
  double perftkit_seconds = 0;
};

// Runs the descent from request's position. Bad input (FEN, moves) is a UsageError.
DiffOutcome diff_with_engine(EngineClient& engine, const DiffRequest& request);

}  // namespace perftkit
