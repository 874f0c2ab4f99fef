// The PGN game columns of `classify` (--columns, --tags): which ones are written, and the
// values lichess-style move comments carry ([%clk h:mm:ss], [%eval 0.45], [%eval #-3]).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perftkit {

struct GameColumns {
  bool game = false;              // the game's index in its file (from 1)
  bool ply = false;               // plies played to reach the position
  bool move_uci = false;          // the move that led to the position (none at ply 0)
  bool move_san = false;          // the same, as the game wrote it
  bool clock = false;             // [%clk] after that move: seconds left
  bool eval = false;              // [%eval] after that move: eval_cp (centipawns) or eval_mate (mate in N, signed)
  std::vector<std::string> tags;  // a column per tag, named as the tag
  bool all_tags = false;          // one `tags` column: every tag of the game, as a JSON object
  std::vector<std::string> kept;  // table input: columns carried over (--keep-columns), last

  // Adds a --columns item: game, ply, move (both), move_uci, move_san, clock, eval.
  // Returns false for an unknown name.
  bool add(std::string_view name);
  // The names add() knows (for help and errors).
  static std::string names();
  bool any() const { return game || ply || wants_details() || !kept.empty(); }
  // Whether the replay must report tags, moves and comments.
  bool wants_details() const { return move_uci || move_san || clock || eval || all_tags || !tags.empty(); }
};

// Whether a tag holds a number in the typed output: ratings (names ending in "Elo") and
// rating changes (ending in "RatingDiff").
bool is_numeric_tag(std::string_view name);

struct CommentValues {
  std::optional<double> clock_seconds;
  std::optional<int> eval_cp;    // from White's side, in centipawns
  std::optional<int> eval_mate;  // mate in N: positive when White mates
};

// The [%clk ...] and [%eval ...] commands in a move's comments (the first of each).
CommentValues read_comment_values(std::string_view comments);
// The same, into values: a reader that keeps them reads them in place (a returned copy is
// written in narrow pieces and read back in wide ones, a stall of its own).
void read_comment_values(std::string_view comments, CommentValues& values);

}  // namespace perftkit
