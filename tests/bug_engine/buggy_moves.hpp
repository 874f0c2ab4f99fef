// The move generator of the test engine: perftkit's legal moves, with one bug injected on
// purpose, so that `perftkit diff` can be shown to find each kind of bug. Bugs that depend
// on history (a castling right kept for a captured rook, an en-passant right kept a ply too
// long) travel in BugState beside the position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perftkit/position.hpp"

namespace perftkit::bug_engine {

enum class Bug {
  NONE,
  EP_EXPOSES_KING_ON_RANK,  // en passant allowed though it opens the king's rank
  CASTLE_THROUGH_ATTACK,    // only the king's destination is checked for attacks
  CASTLE_WITHOUT_ROOK,      // a rook captured on its square keeps its castling right
  NO_UNDERPROMOTION,        // pawns promote to queens only
  PINNED_LEAVES_LINE,       // pinned knights, bishops, rooks and queens move freely
  KING_TAKES_DEFENDED,      // the king may capture a defended piece
  EP_RIGHT_KEPT,            // the en-passant square survives the reply to the double push
  CHESS960_KING_ON_TARGET,  // no castling when the king already stands on its target
  // Misbehaviour rather than a wrong move list:
  CRASH,             // dies with SIGSEGV when asked for a divide deeper than 1
  HANG,              // never answers a divide deeper than 1
  GARBAGE,           // prints an unreadable line inside every divide
  PHANTOM_MOVE,      // adds a count line for a move with no piece on its square
  SAN_LINES,         // writes its divide lines in SAN-like notation ("Nf3: 20"), not UCI
  CRASH_BELOW_ROOT,  // counts one leaf too many under the root's first move, and dies
                     // with SIGSEGV when asked about any position below the root
};

// The bug named by text ("none", "ep-exposes-king", ...), or nullopt.
std::optional<Bug> parse_bug(std::string_view text);
// Every name parse_bug knows, for the usage line.
std::string bug_names();

struct BugState {
  Position pos{};
  Square stale_ep = SQ_NONE;    // EP_RIGHT_KEPT: the target of the double push two plies ago
  Square pending_ep = SQ_NONE;  // ...and of the one just played
  Bitboard phantom_rooks = 0;   // CASTLE_WITHOUT_ROOK: corners whose captured rook kept its right
};

struct BuggyMove {
  std::string uci;
  BugState child;
};

// The moves the buggy generator lists in state (castling king-takes-rook when chess960).
std::vector<BuggyMove> buggy_moves(const BugState& state, Bug bug, bool chess960);

// perft(depth) over buggy_moves.
std::uint64_t buggy_perft(const BugState& state, int depth, Bug bug, bool chess960);

}  // namespace perftkit::bug_engine
