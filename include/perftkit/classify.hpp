// Classification of one position by the rules: legal moves, check, checkmate, stalemate,
// draws by material, the 50- and 75-move clocks, repetitions, and the outcome these imply,
// judged in python-chess's outcome() order. Runs on the host and the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "perftkit/material.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {

// Why a game is over, or may be claimed drawn, in the order classify() tests them: the
// automatic endings first (python-chess's outcome()), then the two claimable draws.
enum class Termination : std::uint8_t {
  NONE,
  CHECKMATE,
  INSUFFICIENT_MATERIAL,  // neither side can mate on material alone
  STALEMATE,
  SEVENTYFIVE_MOVES,     // FIDE 9.6.2: 75 moves by each side without a capture or pawn move
  FIVEFOLD_REPETITION,   // FIDE 9.6.1
  FIFTY_MOVES,           // claimable (FIDE 9.3)
  THREEFOLD_REPETITION,  // claimable (FIDE 9.2)
  TERMINATION_NB
};

// Who won: the mating side for CHECKMATE, nobody (a draw) for every other termination.
enum class Winner : std::uint8_t { NONE, WHITE_WINS, BLACK_WINS };

struct Classification {
  std::uint16_t legal_moves;
  std::uint8_t checkers;     // pieces giving check to the side to move
  std::uint8_t repetitions;  // occurrences of this position in its game; 0 without a history
  bool in_check;
  bool checkmate;
  bool stalemate;
  bool insufficient_white;  // White can no longer mate by any sequence, on material alone
  bool insufficient_black;
  bool fifty_move;        // half-move clock at least 100 and no checkmate on the board
  bool seventyfive_move;  // half-move clock at least 150 and no checkmate on the board
  DeadMaterial dead;      // both sides insufficient: the kind of dead position
  Termination termination;
  Winner winner;

  PERFTKIT_HD_INLINE bool dead_by_material() const { return dead != DeadMaterial::NONE; }
  // The game is over by rule, whatever the players do (no claim needed).
  PERFTKIT_HD_INLINE bool game_over() const {
    return termination != Termination::NONE && termination < Termination::FIFTY_MOVES;
  }
};

static_assert(std::is_trivially_copyable_v<Classification>);

PERFTKIT_ISA_BEGIN

// Half-move clock values of the move-count rules (FIDE 9.3 and 9.6.2).
inline constexpr int FIFTY_MOVE_PLIES = 100;
inline constexpr int SEVENTYFIVE_MOVE_PLIES = 150;

// The classification of pos, Us to move, whose legal moves and checking pieces are already
// counted (by generate_legal() here, or eight positions at once by a batched counter).
template <Color Us>
PERFTKIT_HD_INLINE Classification classification_from_counts(const Position& pos, int repetitions, int legal_moves,
                                                             int checkers) {
  Classification c{};
  c.legal_moves = std::uint16_t(legal_moves);
  c.checkers = std::uint8_t(checkers);
  c.repetitions = std::uint8_t(repetitions > 255 ? 255 : repetitions);
  c.in_check = checkers != 0;
  c.checkmate = c.in_check && legal_moves == 0;
  c.stalemate = !c.in_check && legal_moves == 0;
  c.insufficient_white = insufficient_material(pos, WHITE);
  c.insufficient_black = insufficient_material(pos, BLACK);
  c.dead = dead_material(pos);
  c.fifty_move = pos.halfmove_clock >= FIFTY_MOVE_PLIES && !c.checkmate;
  c.seventyfive_move = pos.halfmove_clock >= SEVENTYFIVE_MOVE_PLIES && !c.checkmate;

  // One reason, the first that applies; a mate takes precedence over every draw (FIDE 9.6).
  if (c.checkmate) c.termination = Termination::CHECKMATE;
  else if (c.dead_by_material()) c.termination = Termination::INSUFFICIENT_MATERIAL;
  else if (c.stalemate) c.termination = Termination::STALEMATE;
  else if (c.seventyfive_move) c.termination = Termination::SEVENTYFIVE_MOVES;
  else if (repetitions >= 5) c.termination = Termination::FIVEFOLD_REPETITION;
  else if (c.fifty_move) c.termination = Termination::FIFTY_MOVES;
  else if (repetitions >= 3) c.termination = Termination::THREEFOLD_REPETITION;
  c.winner = c.checkmate ? (Us == WHITE ? Winner::BLACK_WINS : Winner::WHITE_WINS) : Winner::NONE;
  return c;
}

template <Color Us>
PERFTKIT_HD_INLINE Classification classify(const Position& pos, int repetitions) {
  const Bitboard checkers = legality_masks<Us>(pos, pos.king_square(Us)).checkers;
  CountSink moves;
  generate_legal<Us>(pos, moves);
  return classification_from_counts<Us>(pos, repetitions, int(moves.count), popcount(checkers));
}

// Classifies pos; repetitions is how often pos has occurred in its game counting this
// time (0 when no history is known: the repetition rules are then never met).
PERFTKIT_HD_INLINE Classification classify(const Position& pos, int repetitions = 0) {
  return pos.side_to_move == WHITE ? classify<WHITE>(pos, repetitions) : classify<BLACK>(pos, repetitions);
}

// A kernel body over a batch: out[i] = classify(positions[i]), for a grid-stride loop on the
// GPU or a plain loop on the CPU. repetitions may be null (no histories).
struct ClassifyFunctor {
  const Position* positions;
  const std::uint8_t* repetitions;
  Classification* out;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    out[i] = classify(positions[i], repetitions ? repetitions[i] : 0);
  }
};

PERFTKIT_ISA_END
}  // namespace perftkit
