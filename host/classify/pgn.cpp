#include "classify/pgn.hpp"

#include <string>

#include "notation/fen.hpp"
#include "notation/pgn_game.hpp"

namespace perftkit {
namespace {

// Turns the positions of one game into rows (all of them, or only the last one).
class RowVisitor final : public PgnVisitor {
 public:
  RowVisitor(std::uint64_t game, PgnPositions positions, RowSink& sink)
      : game_(game), positions_(positions), sink_(sink) {}

  void start(std::uint32_t warnings, bool chess960) override {
    warnings_ = warnings;
    chess960_ = chess960;
  }
  void position(const Position& pos, int ply, int repetitions) override {
    last_ = pos;
    last_ply_ = ply;
    last_repetitions_ = repetitions;
    if (positions_ == PgnPositions::ALL) emit(pos, ply, repetitions);
  }
  // The last position's row in FINAL mode (a game that never reached a position has none).
  void finish(bool had_position) {
    if (positions_ == PgnPositions::FINAL && had_position) emit(last_, last_ply_, last_repetitions_);
  }
  void reject(int ply, const std::string& error, bool had_position) {
    const std::string fen = had_position ? to_fen(last_) : std::string();
    ClassifyRow row = base(ply);
    row.fen = fen;
    row.error = error;
    sink_.finished_row(row);
  }

 private:
  ClassifyRow base(int ply) const {
    ClassifyRow row;
    row.from_pgn = true;
    row.game = game_;
    row.ply = std::uint64_t(ply);
    row.chess960 = chess960_;
    row.warnings = ply == 0 ? warnings_ : 0;  // the start position's warnings
    return row;
  }

  void emit(const Position& pos, int ply, int repetitions) {
    const std::string fen = to_fen(pos);
    ClassifyRow row = base(ply);
    row.fen = fen;
    row.fen_plain = true;
    row.valid = true;
    row.side_to_move = pos.side_to_move;
    row.has_history = true;
    sink_.position_row(row, pos, repetitions);
  }

  std::uint64_t game_;
  PgnPositions positions_;
  RowSink& sink_;
  std::uint32_t warnings_ = 0;
  bool chess960_ = false;
  Position last_{};
  int last_ply_ = 0, last_repetitions_ = 0;
};

}  // namespace

std::uint64_t classify_games(std::string_view text, const std::vector<GameSpan>& games, std::uint64_t first_game,
                             PgnPositions positions, RowSink& sink, ClassifySummary& summary) {
  std::uint64_t rejected = 0, number = first_game;
  summary.games += games.size();
  for (const GameSpan& span : games) {
    const std::uint64_t game = number++;
    RowVisitor visitor(game, positions, sink);
    const PgnReplay replay = replay_game(text.substr(span.begin, span.end - span.begin), visitor);
    const bool had_position = replay.error.empty() || replay.error_ply > 0;
    if (!replay.error.empty()) {
      // FINAL keeps the last legal position of a broken game, then reports the break.
      if (had_position) visitor.finish(true);
      const std::string where = "game " + std::to_string(game) +
                                (replay.error_ply > 0 ? ", ply " + std::to_string(replay.error_ply) : std::string());
      visitor.reject(replay.error_ply, where + ": " + replay.error, had_position);
      ++rejected;
      ++summary.game_errors;
    } else {
      visitor.finish(had_position);
    }
  }
  return rejected;
}

}  // namespace perftkit
