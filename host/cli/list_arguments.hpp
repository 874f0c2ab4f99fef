// List options take their items as several words or comma-separated:
// `classify --only checkmate stalemate games.pgn` is `--only checkmate,stalemate games.pgn`.
// CLI11 gives each such option one word, so that a file after the list is never taken for an
// item; the words of a list are joined into that one word before CLI11 parses the line.
#pragma once

#include <string>
#include <vector>

namespace perftkit {

// The command line with each list option's words joined by commas. A list goes on while the
// next word is an item: for the options whose items are a fixed set of names (--only,
// --columns), a word whose comma-separated parts are all such names; for the open ones (--tags,
// --keep-columns), a word that is not an option and does not name a file (an existing path, or
// a name ending in an input extension such as .pgn, .csv or .zst). Only `classify` has lists.
std::vector<std::string> join_list_words(const std::vector<std::string>& args);

}  // namespace perftkit
