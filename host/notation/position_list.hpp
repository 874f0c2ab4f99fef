// The positions of a text, for building suites: FEN or EPD lines (blank lines and '#'
// comments skipped), or every position of PGN games. Rejected lines and games are listed
// with their place and reason; the rest is still read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perftkit/position.hpp"

namespace perftkit {

struct ListedPosition {
  Position position{};
  std::string source;  // "file:line" (lines) or "file:game N ply P" (PGN)
};

struct PositionListError {
  std::string source;
  std::string reason;
};

struct PositionList {
  std::vector<ListedPosition> positions;  // in input order
  std::vector<PositionListError> errors;
};

// Whether text holds PGN: a ".pgn" name, or a first token that is a tag '[' or "1.".
bool looks_like_pgn(std::string_view file, std::string_view text);

// One position per FEN/EPD line (a line with ';' operations is read as EPD).
PositionList positions_of_lines(std::string_view text, std::string_view file);

// Every position of every game (the start and each ply), or only each game's last one.
PositionList positions_of_pgn(std::string_view text, std::string_view file, bool final_only);

}  // namespace perftkit
