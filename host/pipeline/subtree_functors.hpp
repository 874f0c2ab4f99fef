// Kernel bodies of the pipeline's subtree mode (subtrees.hpp): probing the
// transposition table, counting a miss's children, merging with a representative per child
// slot, and summing each parent's slots into a stored count. Host+device, no Thrust.
#pragma once

#include <cstdint>

#include "perftkit/movegen.hpp"
#include "perftkit/position_key.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/slot_functors.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit::pipeline {

// A count not known yet: a miss waits for its children's sum. No stored or summed count is
// SATURATED (a saturated sum fails the run), so it cannot be mistaken for one.
inline constexpr std::uint64_t UNKNOWN_COUNT = SATURATED;

// counts[i] = the stored count of positions[i] at `depth` plies, or UNKNOWN_COUNT.
struct ProbeSubtrees {
  const Position* positions;
  std::uint64_t* counts;
  SubtreeTableView table;
  KeySet keys;
  int depth;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { run(i, prepare(i)); }
  // (f(i) = run(i, prepare(i)): the host's systems prepare a block and fetch its buckets
  // before they run it.)
  PERFTKIT_HD_INLINE PositionKey prepare(std::uint64_t i) const { return position_key(positions[i], keys); }
  PERFTKIT_HD_INLINE const void* bucket_of(const PositionKey& key) const { return table.bucket_of(key, depth); }
  PERFTKIT_HD_INLINE void run(std::uint64_t i, const PositionKey& key) const {
    std::uint64_t count = 0;
    counts[i] = table.probe(key, depth, count) ? count : UNKNOWN_COUNT;
  }
};

// offsets[i] = legal moves of positions[i] when its count is unknown, else 0 (a hit has no
// children); offsets[n] = 0. Runs over n + 1 indices.
struct CountMissChildren {
  const Position* positions;
  const std::uint64_t* counts;
  std::uint64_t* offsets;
  std::uint64_t n;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    offsets[i] = i < n && counts[i] == UNKNOWN_COUNT ? count_moves(positions[i]) : 0;
  }
};

// The unknown counts of leaves `remaining` (1..2) plies above the last, counted and stored.
// (The depth is a run-time value, as in LeafCount: ptxas then allocates the counter's
// registers as it does there, without spills.)
struct CountLeafMisses {
  const Position* positions;
  std::uint64_t* counts;
  SubtreeTableView table;
  KeySet keys;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    if (counts[i] != UNKNOWN_COUNT) return;
    const std::uint64_t count = leaf_perft(positions[i], remaining);
    counts[i] = count;
    table.store(position_key(positions[i], keys), remaining, count);
  }
};

// 1 where the sorted entry j starts a run of identical positions, else 0.
struct RunStart {
  const std::uint64_t* order;
  SameTreeAt same;

  PERFTKIT_HD std::uint64_t operator()(std::uint64_t j) const {
    return j == 0 || !same(order[j - 1], order[j]) ? 1 : 0;
  }
};

// From the sorted order and the inclusive scan of RunStart (runs[j]: 1 + the run of entry j):
// each child slot gets its run's index, and each run its first slot.
struct AssignRepresentatives {
  const std::uint64_t* order;
  const std::uint64_t* runs;
  std::uint64_t* representative;  // per child slot
  std::uint64_t* first_of_run;    // per run

  PERFTKIT_HD_INLINE void operator()(std::uint64_t j) const {
    const std::uint64_t run = runs[j] - 1;
    representative[order[j]] = run;
    if (j == 0 || runs[j - 1] != runs[j]) first_of_run[run] = order[j];
  }
};

// The subtree of `remaining` (2) plies under child slot k, its parent's move played there:
// found in the table (hits[k] = 1), else counted and stored (hits[k] = 0), into counts[k].
// Slots of one parent come together, so its position is read once for all of them; a
// transposition found by an earlier slot is a hit. (The depth is a run-time value, as in
// CountLeafMisses.)
struct CountSlotSubtrees {
  const Position* parents;
  const Move* moves;
  const std::uint64_t* parent_of;
  std::uint64_t* counts;
  std::uint8_t* hits;
  SubtreeTableView table;
  KeySet keys;
  int remaining;

  struct Slot {
    Position position;
    PositionKey key;
  };

  PERFTKIT_HD_INLINE void operator()(std::uint64_t k) const { run(k, prepare(k)); }
  // (As ProbeSubtrees: the host's systems prepare a block and fetch its buckets first.)
  PERFTKIT_HD_INLINE Slot prepare(std::uint64_t k) const {
    const Position position = make_move(parents[parent_of[k]], moves[k]);
    return {position, position_key(position, keys)};
  }
  PERFTKIT_HD_INLINE const void* bucket_of(const Slot& slot) const { return table.bucket_of(slot.key, remaining); }
  PERFTKIT_HD_INLINE void run(std::uint64_t k, const Slot& slot) const {
    std::uint64_t count = 0;
    const bool hit = table.probe(slot.key, remaining, count);
    if (!hit) {
      count = leaf_perft(slot.position, remaining);
      table.store(slot.key, remaining, count);
    }
    counts[k] = count;
    hits[k] = hit ? 1 : 0;
  }
};

// counts[i] of a parent whose count was unknown: the saturating sum of its child slots'
// representative counts (without representatives, each slot's own count), stored at
// `depth` unless saturated. A parent without children (a hit, or mate or stalemate) keeps
// its count, or gets 0.
struct SumChildSubtrees {
  const Position* parents;
  const std::uint64_t* offsets;         // the parents' exclusive scan, n + 1 entries from the chunk's first
  std::uint64_t base;                   // offsets[0]: the chunk's first child slot
  const std::uint64_t* representative;  // per child slot; nullptr: every slot is its own
  const std::uint64_t* child_counts;    // per representative
  std::uint64_t* counts;
  SubtreeTableView table;
  KeySet keys;
  int depth;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    const std::uint64_t begin = offsets[i] - base, end = offsets[i + 1] - base;
    if (begin == end) {
      if (counts[i] == UNKNOWN_COUNT) counts[i] = 0;
      return;
    }
    std::uint64_t sum = 0;
    for (std::uint64_t k = begin; k < end; ++k)
      sum = SaturatingAdd{}(sum, child_counts[representative ? representative[k] : k]);
    counts[i] = sum;
    if (sum != SATURATED) table.store(position_key(parents[i], keys), depth, sum);
  }
};

}  // namespace perftkit::pipeline
