// Positions for fuzzing an engine: random play from the standard start and from Chess960
// starts, weighted towards the moves where generators go wrong (en passant, castling,
// promotions, checks, captures), and stopped on a position where such a move is legal or
// the side to move is in check. The same seed gives the same positions on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace perftkit {

struct RandomPosition {
  std::string fen;
  std::string start;  // "standard" or "chess960 #N" (Scharnagl's numbering)
  int plies = 0;      // random moves played from the start
};

// count positions from seed; Chess960 starts (every other position) only when chess960.
std::vector<RandomPosition> random_positions(std::size_t count, std::uint64_t seed, bool chess960);

// The Chess960 start number n (0-959, Scharnagl's numbering; 518 is the standard start) as
// a FEN with Shredder castling letters.
std::string chess960_start_fen(int n);

}  // namespace perftkit
