#include "classify/pgn.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "classify/pending_rows.hpp"
#include "common/json_string.hpp"
#include "notation/fen.hpp"
#include "notation/pgn_game.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

// Turns the positions of one game into rows (all of them, or only the last one). Rows wait
// in `pending` to be classified together; they are handed on before any rejected row and by
// the game's end, while the game's texts they view are alive.
class RowVisitor final : public PgnVisitor {
 public:
  RowVisitor(std::uint64_t game, PgnPositions positions, PendingRows& pending, RowSink& sink,
             const GameColumns& columns)
      : game_(game),
        positions_(positions),
        pending_(pending),
        sink_(sink),
        columns_(columns),
        tag_values_(columns.tags.size()) {}

  void start(std::uint32_t warnings, bool chess960) override {
    warnings_ = warnings;
    chess960_ = chess960;
    tag_views_.assign(tag_values_.begin(), tag_values_.end());
    if (!columns_.tags.empty()) tag_columns_ = sink_.formatter().tag_columns(tag_views_.data(), tag_views_.size());
    if (columns_.all_tags) all_tags_json_ += all_tags_json_.empty() ? "{}" : "}";
  }
  bool wants_details() const override { return columns_.wants_details(); }
  void tag(std::string_view name, std::string_view value) override {
    for (std::size_t i = 0; i < columns_.tags.size(); ++i)
      if (columns_.tags[i] == name) tag_values_[i] = value;
    if (columns_.all_tags) {
      all_tags_json_ += all_tags_json_.empty() ? "{\"" : ",\"";
      all_tags_json_ += json_escape(name);
      all_tags_json_ += "\":\"";
      all_tags_json_ += json_escape(value);
      all_tags_json_ += '"';
    }
  }
  void move(std::string_view san, Move move, std::string_view comments) override {
    move_san_ = san;
    move_ = move;
    if (columns_.clock || columns_.eval) read_comment_values(comments, comment_);
  }
  void position(const Position& pos, int ply, int repetitions) override {
    if (positions_ == PgnPositions::ALL) {
      emit(pos, ply, repetitions);
      return;
    }
    last_ = pos;  // (only FINAL needs it kept)
    last_ply_ = ply;
    last_repetitions_ = repetitions;
  }
  // The last position's row in FINAL mode (a game that never reached a position has none).
  void finish(bool had_position) {
    // (the move and comments kept are those of the last position)
    if (positions_ == PgnPositions::FINAL && had_position) emit(last_, last_ply_, last_repetitions_);
    pending_.hand_on();
  }
  // The error row of a broken game, with the FEN of its last legal position (last).
  void reject(int ply, const std::string& error, bool had_position, const Position& last) {
    pending_.hand_on();
    const std::string fen = had_position ? to_fen(last) : std::string();
    ClassifyRow row;
    set_base(row, ply);
    row.fen = fen;
    row.error = error;
    sink_.finished_row(row);
  }

 private:
  // Fills a cleared row with what every row of the game has (in place: a row returned by
  // value was cleared and then copied, a tenth of the visitor's time).
  void set_base(ClassifyRow& row, int ply) const {
    row.from_pgn = true;
    row.game = game_;
    row.ply = std::uint64_t(ply);
    row.chess960 = chess960_;
    row.warnings = ply == 0 ? warnings_ : 0;  // the start position's warnings
    if (columns_.wants_details()) {
      row.all_tags_json = all_tags_json_;
      row.tag_columns = tag_columns_;
      row.has_tag_columns = !columns_.tags.empty();
    }
  }

  // The move columns of the row for ply (none at ply 0, and none for an error row); the row
  // was the last added to pending_, whose room takes its UCI text.
  void add_move(ClassifyRow& row, int ply) const {
    if (ply == 0 || !columns_.wants_details()) return;
    row.move_san = move_san_;
    if (columns_.move_uci) {
      char* const uci = pending_.move_room();
      row.move_uci = {uci, std::size_t(write_uci(move_, chess960_, uci) - uci)};
    }
    row.has_clock = comment_.clock_seconds.has_value();
    row.clock_seconds = comment_.clock_seconds.value_or(0);
    row.has_eval_cp = comment_.eval_cp.has_value();
    row.eval_cp = comment_.eval_cp.value_or(0);
    row.has_eval_mate = comment_.eval_mate.has_value();
    row.eval_mate = comment_.eval_mate.value_or(0);
  }

  void emit(const Position& pos, int ply, int repetitions) {
    static_assert(FEN_MAX_BYTES <= PendingRows::FEN_ROOM && UCI_MAX_BYTES <= PendingRows::MOVE_ROOM);
    ClassifyRow& row = pending_.add(pos, repetitions);
    set_base(row, ply);
    add_move(row, ply);
    // The texts that change from row to row are written into the row's own room.
    char* const fen = pending_.fen_room();
    row.fen = std::string_view(fen, std::size_t(fen_writer_.write(pos, fen) - fen));
    row.fen_plain = true;
    row.valid = true;
    row.side_to_move = pos.side_to_move;
    row.has_history = true;
  }

  std::uint64_t game_;
  PgnPositions positions_;
  PendingRows& pending_;
  RowSink& sink_;
  std::uint32_t warnings_ = 0;
  bool chess960_ = false;
  Position last_{};
  int last_ply_ = 0, last_repetitions_ = 0;
  const GameColumns& columns_;
  std::vector<std::string> tag_values_;      // the --tags values of this game
  std::vector<std::string_view> tag_views_;  // ...as the rows see them
  std::string all_tags_json_;                // --tags all
  std::string tag_columns_;                  // the --tags columns, formatted once per game
  std::string_view move_san_;                // a view into the game's text
  Move move_{};                              // the move that led to the last position
  CommentValues comment_;
  FenWriter fen_writer_;  // the game's positions follow each other
};

}  // namespace

std::uint64_t classify_games(std::string_view text, const std::vector<GameSpan>& games, std::uint64_t first_game,
                             PgnPositions positions, RowSink& sink, ClassifySummary& summary,
                             const GameColumns& columns, bool may_hold_nul) {
  std::uint64_t rejected = 0, number = first_game;
  summary.games += games.size();
  PendingRows pending(sink);
  const bool block_has_nul = may_hold_nul && std::memchr(text.data(), '\0', text.size()) != nullptr;
  for (const GameSpan& span : games) {
    const std::uint64_t game = number++;
    RowVisitor visitor(game, positions, pending, sink, columns);
    const std::string_view game_text = text.substr(span.begin, span.end - span.begin);
    // A NUL byte past the input's first 4 KiB (input.hpp) is damage: the game is not read.
    if (block_has_nul && std::memchr(game_text.data(), '\0', game_text.size())) {
      visitor.reject(0, "game " + std::to_string(game) + ": a NUL byte in its text (damaged text)", false, Position{});
      ++rejected;
      ++summary.game_errors;
      continue;
    }
    const PgnReplay replay = replay_game(game_text, visitor);
    const bool had_position = replay.error.empty() || replay.error_ply > 0;
    if (!replay.error.empty()) {
      // FINAL keeps the last legal position of a broken game, then reports the break.
      if (had_position) visitor.finish(true);
      const std::string where = "game " + std::to_string(game) +
                                (replay.error_ply > 0 ? ", ply " + std::to_string(replay.error_ply) : std::string());
      visitor.reject(replay.error_ply, where + ": " + replay.error, had_position, replay.last);
      ++rejected;
      ++summary.game_errors;
    } else {
      visitor.finish(had_position);
    }
  }
  return rejected;
}

}  // namespace perftkit
