// Where one PGN game ends, so that a stream of games can be cut into whole games.
#pragma once

#include <cstddef>
#include <string_view>

namespace perftkit {

struct GameExtent {
  std::size_t end;   // one past the game's last byte (the start of what follows)
  bool complete;     // false: the text ends before the game does; read more and try again
  bool has_content;  // a tag or a movetext token was seen (false for blanks and stray comments)
};

// The extent of the first game of text: it ends after its termination marker (1-0, 0-1,
// 1/2-1/2, *) outside any variation, or before a tag section that follows its movetext,
// or at the end of the text when at_eof.
GameExtent find_game_end(std::string_view text, bool at_eof);

}  // namespace perftkit
