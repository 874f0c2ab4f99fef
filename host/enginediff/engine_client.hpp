// An external move generator asked for divides through one of three protocols:
//   uci       one long-lived process: `position fen F moves ...`, `go perft N`, read
//             `move: n` lines up to `Nodes searched: N` (Stockfish's extension);
//   perftree  one process per divide: `CMD DEPTH "FEN" ["MOVES"]`, read `move count` lines,
//             a blank line and the total (perftree's script interface);
//   divide    one process per divide from a template with {fen}, {depth} and {moves}, whose
//             output holds a `move<sep>count` line per move.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/uint128.hpp"
#include "enginediff/divide_line.hpp"

namespace perftkit {

enum class EngineProtocol { UCI, PERFTREE, DIVIDE };

struct EngineSettings {
  std::string command;  // "CMD [ARGS]", split as a shell would
  EngineProtocol protocol = EngineProtocol::UCI;
  bool chess960 = false;         // UCI: setoption name UCI_Chess960 value true
  double timeout_seconds = 120;  // per divide; then the engine is killed
};

struct EngineDivide {
  std::vector<DivideLine> moves;  // in the order printed
  std::optional<u128> total;      // the total the engine printed, if any
};

class EngineClient {
 public:
  virtual ~EngineClient() = default;
  // The engine's divide of the position reached from root_fen by moves (UCI), depth plies
  // deep. Throws EngineFailure when it cannot start, crashes, times out or prints lines that
  // cannot be read; a UCI engine is started again on the next call.
  virtual EngineDivide divide(const std::string& root_fen, const std::vector<std::string>& moves, int depth) = 0;
};

// Checks the command (UsageError for an empty one, or a divide template without {fen}).
std::unique_ptr<EngineClient> make_engine_client(const EngineSettings& settings);

// "uci", "perftree", "divide".
const char* protocol_name(EngineProtocol protocol);

}  // namespace perftkit
