// What goes wrong with an external engine: it cannot start, it crashes, it hangs, or it
// prints what cannot be read. Each carries the last lines the engine printed.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace perftkit {

// OTHER_NOTATION: its divide lines are moves and counts, but no move is UCI (SAN, say): the
// engine's format is the problem, not its move generator (`diff` exits 2, as for a usage error).
enum class EngineFailureKind { CANNOT_START, CRASHED, TIMED_OUT, UNREADABLE_OUTPUT, OTHER_NOTATION };

// "cannot start", "crashed", "timed out", "unreadable output", "output in another notation".
const char* engine_failure_name(EngineFailureKind kind);

struct EngineFailure : std::runtime_error {
  EngineFailure(EngineFailureKind failure_kind, const std::string& what, std::vector<std::string> lines)
      : std::runtime_error(what), kind(failure_kind), last_lines(std::move(lines)) {}
  EngineFailureKind kind;
  std::vector<std::string> last_lines;  // oldest first
};

}  // namespace perftkit
