// One line of an engine's divide: a move and its count, written leniently, as engines
// write them: "e2e4: 20", "e2e4 20", "e2e4 - 20", "E7E8Q: 3", "e1h1:1".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/uint128.hpp"

namespace perftkit {

struct DivideLine {
  std::string move;  // as the engine wrote it, lower-cased
  u128 count = 0;
};

// The move and count of line, or nullopt when it is not such a line. The move is two
// squares and an optional promotion letter (either case); the separator is ':', '-' or
// whitespace, with any spaces around it.
std::optional<DivideLine> parse_divide_line(std::string_view line);

// Whether line starts like a move (two squares), so that a divide line it fails to be is
// unreadable output rather than a header or a total.
bool starts_with_move(std::string_view line);

// Whether line is a divide line with its move in another notation: a token of 2 to 7
// letters, digits and SAN marks ("Nf3", "exd5", "O-O", "e8=Q+") that is not a UCI move,
// a separator (':', '-' or whitespace) and a count. ("Nodes: 400" is not: a word of
// letters alone is a label.)
bool looks_like_other_notation(std::string_view line);

}  // namespace perftkit
