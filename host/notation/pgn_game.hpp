// Replaying one PGN game: its tags (a FEN/SetUp start, the Variant), then its movetext,
// with comments, variations, NAGs, move numbers and annotations skipped and every move in
// SAN resolved against the legal moves of the current position.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "perftkit/position.hpp"

namespace perftkit {

// Receives the positions of a game in order, the start position first (ply 0).
class PgnVisitor {
 public:
  virtual ~PgnVisitor() = default;
  // Called once, before the start position: the start FEN's warnings and whether the game is Chess960.
  virtual void start(std::uint32_t warnings, bool chess960) = 0;
  // repetitions: occurrences of pos in the game so far, this one included. The position
  // after a move comes once the comments that follow the move have been read.
  virtual void position(const Position& pos, int ply, int repetitions) = 0;
  // Each tag pair, before start(): the name and the value with its escapes removed.
  virtual void tag(std::string_view /*name*/, std::string_view /*value*/) {}
  // Just before position() for ply 1 and later: the move that led there, as written (SAN),
  // as played, and the comments that follow it (their text, braces included, space-joined).
  virtual void move(std::string_view /*san*/, Move /*move*/, std::string_view /*comments*/) {}
  // Whether tag() and move() are wanted (gathering comments costs a little).
  virtual bool wants_details() const { return false; }
};

struct PgnReplay {
  int plies = 0;               // moves played
  std::string error;           // empty when the whole game replayed; else the reason, e.g. "illegal move Nf3"
  int error_ply = 0;           // the ply the bad move would have made (0: a tag was wrong)
  Position last{};             // the last position reached
  std::uint32_t warnings = 0;  // FenWarning flags of a FEN start position
  bool chess960 = false;       // a Chess960 variant tag or Chess960 castling rights
};

// Replays the game in text (one game, as find_game_end cut it), calling visitor for every
// position reached. Stops at the first bad move or tag and reports it.
PgnReplay replay_game(std::string_view text, PgnVisitor& visitor);

}  // namespace perftkit
