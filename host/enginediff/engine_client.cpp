#include "enginediff/engine_client.hpp"

#include <chrono>
#include <set>

#include "common/errors.hpp"
#include "enginediff/command_words.hpp"
#include "enginediff/engine_failure.hpp"
#include "enginediff/engine_process.hpp"

namespace perftkit {

const char* protocol_name(EngineProtocol protocol) {
  switch (protocol) {
    case EngineProtocol::UCI: return "uci";
    case EngineProtocol::PERFTREE: return "perftree";
    case EngineProtocol::DIVIDE: return "divide";
  }
  return "?";
}

namespace {

using Clock = EngineProcess::Clock;

Clock::time_point deadline_after(double seconds) {
  return Clock::now() + std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

std::string join_moves(const std::vector<std::string>& moves) {
  std::string text;
  for (const std::string& move : moves) text += (text.empty() ? "" : " ") + move;
  return text;
}

[[noreturn]] void fail(EngineProcess& process, EngineFailureKind kind, const std::string& what) {
  throw EngineFailure(kind, what, process.last_lines());
}

// The engine's divide lines are moves and counts in a notation perftkit does not read.
[[noreturn]] void fail_on_notation(EngineProcess& process, const std::string& line) {
  fail(process, EngineFailureKind::OTHER_NOTATION,
       "the engine's output could not be read: no line is a UCI move and its count ('e2e4: 20'), and it printed '" +
           line +
           "' (SAN or another notation?). Make the engine print UCI moves, or check --protocol (uci, perftree, "
           "divide) and the command template");
}

// The engine stopped answering: its output closed (it crashed or quit) or the deadline
// passed (it hangs and is killed).
[[noreturn]] void fail_on_silence(EngineProcess& process, EngineProcess::Read read, const std::string& waiting_for,
                                  double timeout_seconds) {
  if (read == EngineProcess::Read::TIMEOUT) {
    process.kill_now();
    fail(process, EngineFailureKind::TIMED_OUT,
         "no " + waiting_for + " within " + std::to_string(int(timeout_seconds)) + " s; the engine was killed");
  }
  const std::string how = process.wait_for_exit(deadline_after(2));
  fail(process, EngineFailureKind::CRASHED, "the engine " + how + " before " + waiting_for);
}

void add_move_line(EngineProcess& process, EngineDivide& divide, std::set<std::string>& seen, const DivideLine& line) {
  if (!seen.insert(line.move).second)
    fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "the engine lists move " + line.move + " twice");
  divide.moves.push_back(line);
}

// Stockfish's `go perft N` extension over a long-lived UCI process.
class UciEngine final : public EngineClient {
 public:
  explicit UciEngine(EngineSettings settings)
      : settings_(std::move(settings)), words_(split_command_words(settings_.command)) {}

  EngineDivide divide(const std::string& root_fen, const std::vector<std::string>& moves, int depth) override {
    if (!process_) start();
    try {
      return ask(root_fen, moves, depth);
    } catch (const EngineFailure&) {
      process_.reset();  // started afresh for the next position
      throw;
    }
  }

 private:
  void start() {
    process_ = std::make_unique<EngineProcess>(words_);
    try {
      const auto deadline = deadline_after(settings_.timeout_seconds);
      send("uci");
      wait_for("uciok", deadline);
      if (settings_.chess960) send("setoption name UCI_Chess960 value true");
      send("isready");
      wait_for("readyok", deadline);
    } catch (const EngineFailure&) {
      process_.reset();
      throw;
    }
  }

  void send(const std::string& line) {
    if (!process_->write_line(line)) {
      const std::string how = process_->wait_for_exit(deadline_after(2));
      fail(*process_, EngineFailureKind::CRASHED, "the engine " + how + " and no longer reads '" + line + "'");
    }
  }

  void wait_for(const std::string& word, Clock::time_point deadline) {
    std::string line;
    for (;;) {
      const EngineProcess::Read read = process_->read_line(line, deadline);
      if (read != EngineProcess::Read::LINE)
        fail_on_silence(*process_, read, "'" + word + "'", settings_.timeout_seconds);
      if (line.rfind(word, 0) == 0) return;
    }
  }

  EngineDivide ask(const std::string& root_fen, const std::vector<std::string>& moves, int depth) {
    process_->forget_lines();
    send("position fen " + root_fen + (moves.empty() ? "" : " moves " + join_moves(moves)));
    send("go perft " + std::to_string(depth));
    const auto deadline = deadline_after(settings_.timeout_seconds);
    EngineDivide divide;
    std::set<std::string> seen;
    std::string line;
    for (;;) {
      const EngineProcess::Read read = process_->read_line(line, deadline);
      if (read != EngineProcess::Read::LINE)
        fail_on_silence(*process_, read, "'Nodes searched' line", settings_.timeout_seconds);
      if (line.rfind("Nodes searched:", 0) == 0) {
        divide.total = parse_u128(std::string_view(line).substr(line.find_first_not_of(' ', 15)));
        if (!divide.total) fail(*process_, EngineFailureKind::UNREADABLE_OUTPUT, "unreadable total: '" + line + "'");
        return divide;
      }
      if (line.find_first_not_of(" \t") == std::string::npos || line.rfind("info", 0) == 0) continue;
      const std::optional<DivideLine> parsed = parse_divide_line(line);
      if (!parsed && divide.moves.empty() && looks_like_other_notation(line)) fail_on_notation(*process_, line);
      if (!parsed) fail(*process_, EngineFailureKind::UNREADABLE_OUTPUT, "unreadable line: '" + line + "'");
      add_move_line(*process_, divide, seen, *parsed);
    }
  }

  EngineSettings settings_;
  std::vector<std::string> words_;
  std::unique_ptr<EngineProcess> process_;
};

// A process per divide: perftree's script interface, or a user's template.
class OneShotEngine final : public EngineClient {
 public:
  explicit OneShotEngine(EngineSettings settings)
      : settings_(std::move(settings)), words_(split_command_words(settings_.command)) {
    if (settings_.protocol == EngineProtocol::DIVIDE && !has_placeholders(words_))
      throw UsageError("--protocol divide needs a command template with {fen}, {depth} and {moves}");
  }

  EngineDivide divide(const std::string& root_fen, const std::vector<std::string>& moves, int depth) override {
    std::vector<std::string> argv;
    if (settings_.protocol == EngineProtocol::PERFTREE) {
      argv = words_;
      argv.push_back(std::to_string(depth));
      argv.push_back(root_fen);
      if (!moves.empty()) argv.push_back(join_moves(moves));
    } else {
      argv = fill_placeholders(words_, root_fen, depth, join_moves(moves));
    }
    EngineProcess process(argv);
    process.close_input();
    const auto deadline = deadline_after(settings_.timeout_seconds);
    std::vector<std::string> lines;
    std::string line;
    for (;;) {
      const EngineProcess::Read read = process.read_line(line, deadline);
      if (read == EngineProcess::Read::END) break;
      if (read == EngineProcess::Read::TIMEOUT)
        fail_on_silence(process, read, "end of output", settings_.timeout_seconds);
      lines.push_back(line);
    }
    const std::string how = process.wait_for_exit(deadline_after(5));
    if (!process.exited_cleanly()) fail(process, EngineFailureKind::CRASHED, "the engine " + how);
    return settings_.protocol == EngineProtocol::PERFTREE ? read_perftree(process, lines) : read_divide(process, lines);
  }

 private:
  // `move count` lines, a blank line, the total: nothing else.
  static EngineDivide read_perftree(EngineProcess& process, const std::vector<std::string>& lines) {
    EngineDivide divide;
    std::set<std::string> seen;
    std::size_t i = 0;
    for (; i < lines.size() && lines[i].find_first_not_of(" \t") != std::string::npos; ++i) {
      const std::optional<DivideLine> parsed = parse_divide_line(lines[i]);
      if (!parsed && divide.moves.empty() && looks_like_other_notation(lines[i])) fail_on_notation(process, lines[i]);
      if (!parsed) fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "unreadable line: '" + lines[i] + "'");
      add_move_line(process, divide, seen, *parsed);
    }
    for (++i; i < lines.size(); ++i) {
      if (lines[i].find_first_not_of(" \t") == std::string::npos) continue;
      if (divide.total || !(divide.total = parse_u128(lines[i])))
        fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "unreadable line after the moves: '" + lines[i] + "'");
    }
    if (!divide.total) fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "no total after the moves");
    return divide;
  }

  // Every line that starts like a move must be `move<sep>count`; other lines (headers,
  // totals, timings) are passed over. A line `Nodes searched: N`, `Total: N` or `Nodes: N`
  // gives the total.
  static EngineDivide read_divide(EngineProcess& process, const std::vector<std::string>& lines) {
    EngineDivide divide;
    std::set<std::string> seen;
    const std::string* other_notation = nullptr;  // the first divide line with a move perftkit does not read
    for (const std::string& text : lines) {
      if (!other_notation && looks_like_other_notation(text)) other_notation = &text;
      if (starts_with_move(text)) {
        const std::optional<DivideLine> parsed = parse_divide_line(text);
        if (!parsed) fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "unreadable move line: '" + text + "'");
        add_move_line(process, divide, seen, *parsed);
        continue;
      }
      for (const char* label : {"Nodes searched:", "Total:", "Nodes:", "total:", "nodes:"}) {
        const std::string_view prefix(label);
        if (text.rfind(prefix, 0) != 0) continue;
        const std::size_t digits = text.find_first_not_of(' ', prefix.size());
        if (digits != std::string::npos) divide.total = parse_u128(std::string_view(text).substr(digits));
      }
    }
    if (divide.moves.empty() && other_notation) fail_on_notation(process, *other_notation);
    if (divide.moves.empty() && !divide.total)
      fail(process, EngineFailureKind::UNREADABLE_OUTPUT, "the engine printed no move lines and no total");
    return divide;
  }

  EngineSettings settings_;
  std::vector<std::string> words_;
};

}  // namespace

std::unique_ptr<EngineClient> make_engine_client(const EngineSettings& settings) {
  if (settings.protocol == EngineProtocol::UCI) return std::make_unique<UciEngine>(settings);
  return std::make_unique<OneShotEngine>(settings);
}

}  // namespace perftkit
