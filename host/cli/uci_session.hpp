// A UCI conversation, enough for perft tools: perftree and test harnesses drive perftkit as
// their reference engine through it (`perftkit uci`). `go perft N` answers as Stockfish does.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "perftkit/position.hpp"

namespace perftkit {

class UciSession {
 public:
  explicit UciSession(std::ostream& out);

  // Answers one line of input; false once it was `quit`. Bad input never ends the session:
  // an `info string error: ...` line names the problem and the position stays as it was.
  bool handle(std::string_view line);

 private:
  void identify();
  void set_option(const std::vector<std::string>& words);
  void set_position(const std::vector<std::string>& words);
  void go(const std::vector<std::string>& words);
  void display();
  void error(const std::string& message);

  std::ostream& out_;
  Position position_;
  bool chess960_ = false;
  unsigned threads_;
  std::size_t hash_mb_ = 16;
};

}  // namespace perftkit
