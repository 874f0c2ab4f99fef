// Child slots: a level kept as its parents' moves rather than as positions, a 16-bit move and
// a parent index each. Work below a level of slots is balanced over (node, move): a thread
// plays one move and counts what lies below it. The subtree mode's last interior level
// (subtree_functors.hpp) and the statistics' last two plies (tally.hpp) are slots.
#pragma once

#include <cstdint>

#include "perftkit/move_list.hpp"
#include "perftkit/movegen.hpp"
#include "perftkit/stats.hpp"

namespace perftkit::pipeline {

// The legal moves of every parent with child slots, listed into them (moves[k], and
// parent_of[k]: the parent's index in the chunk), in the generator's order.
struct ListSlotMoves {
  const Position* parents;
  const std::uint64_t* offsets;  // the parents' exclusive scan, n + 1 entries from the chunk's first
  std::uint64_t base;            // offsets[0]: the chunk's first child slot
  Move* moves;
  std::uint64_t* parent_of;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    if (offsets[i + 1] == offsets[i]) return;
    const Position parent = parents[i];  // in registers: the slots written below cannot alias it
    if (parent.side_to_move == WHITE) list<WHITE>(parent, i);
    else list<BLACK>(parent, i);
  }

  template <Color Us>
  PERFTKIT_HD_INLINE void list(const Position& parent, std::uint64_t i) const {
    std::uint64_t k = offsets[i] - base;
    for_each_listed_move<Us>(parent, [&](Move move) {
      moves[k] = move;
      parent_of[k] = i;
      ++k;
    });
  }
};

// ply_stats[k] = the statistics of the last ply below child slot k, its parent's move
// played there, in packed 16-bit counters. The statistics' leaf kernel: one ply's generator
// and classification, and 11 registers of counters.
struct SlotPlyStats {
  const Position* parents;
  const Move* moves;
  const std::uint64_t* parent_of;
  PlyStats* ply_stats;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t k) const {
    const Position child = make_move(parents[parent_of[k]], moves[k]);
    PlyStats ply{};
    last_ply_stats(child, ply, true);
    ply_stats[k] = ply;
  }
};

// stats[i] = the sum of parent i's slots' last plies: its statistics two plies deep (a
// parent without moves, mated or stalemated, gets zeros). 32 bits hold them: two plies of
// even an invented position have far fewer than 2^32 leaves.
struct SumSlotPlyStats {
  const std::uint64_t* offsets;  // the parents' exclusive scan, n + 1 entries from the chunk's first
  std::uint64_t base;            // offsets[0]: the chunk's first child slot
  const PlyStats* ply_stats;
  ShallowStats* stats;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    ShallowStats sum{};
    for (std::uint64_t k = offsets[i] - base, end = offsets[i + 1] - base; k < end; ++k) sum += ply_stats[k];
    stats[i] = sum;
  }
};

}  // namespace perftkit::pipeline
