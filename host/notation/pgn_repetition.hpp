// Repetitions of a position within one game (FIDE 9.2.2): the same player to move, the same
// pieces on the same squares, and the same possible moves, castling and en passant included.
#pragma once

#include <vector>

#include "perftkit/position.hpp"

namespace perftkit {

class RepetitionHistory {
 public:
  // Forgets every earlier position (a new game).
  void clear() { keys_.clear(); }

  // Records pos as the game's latest position (the one after the last recorded, a ply on);
  // returns how often it has now occurred, this time included. A capture or pawn move
  // (half-move clock 0) makes every earlier position unreachable, so the history restarts there.
  int record(const Position& pos);

 private:
  std::vector<Position> keys_;  // positions since the last irreversible move, clocks cleared
};

// pos as FIDE compares positions: clocks cleared, and an en passant square only when an en
// passant capture is legal (a pinned or absent capturer does not make positions differ).
Position repetition_key(const Position& pos);

}  // namespace perftkit
