// Classifying the games of a PGN block into formatted rows (the work of one batch).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/byte_buffer.hpp"
#include "classify/format.hpp"
#include "classify/row_sink.hpp"
#include "classify/summary.hpp"

namespace perftkit {

// Which positions of a game become rows: every one from the start (ply 0), or the last.
enum class PgnPositions { ALL, FINAL };

struct GameSpan {
  std::size_t begin, end;  // byte range of one game in its block
};

// Replays each game of text (cut by find_game_end; games are numbered from first_game) and
// gives its rows to sink, counting the games (and games with errors) in summary. A game that
// stops at a bad move or tag adds one rejected row naming the game and ply. Returns the number
// of rejected rows. The caller flushes the sink.
// columns: the game columns to fill in (tags, moves, comment values).
// may_hold_nul false: the reader saw no NUL byte in text (a game holding one is rejected).
std::uint64_t classify_games(std::string_view text, const std::vector<GameSpan>& games, std::uint64_t first_game,
                             PgnPositions positions, RowSink& sink, ClassifySummary& summary,
                             const GameColumns& columns = GameColumns{}, bool may_hold_nul = true);

// The same, each row appended to out and counted in summary as it is classified.
inline std::uint64_t classify_games(std::string_view text, const std::vector<GameSpan>& games, std::uint64_t first_game,
                                    PgnPositions positions, const RowFormatter& formatter, ByteBuffer& out,
                                    ClassifySummary& summary) {
  ImmediateRowSink sink(formatter, out, summary);
  return classify_games(text, games, first_game, positions, sink, summary, formatter.columns());
}

}  // namespace perftkit
