// Kernel bodies of the pipeline's statistics subtree mode (stats_subtrees.hpp): probing the
// statistics table, counting the subtrees two plies above the leaves, and summing each
// parent's child slots into stored statistics. Host+device, no Thrust.
#pragma once

#include <cstdint>

#include "perftkit/move_list.hpp"
#include "perftkit/movegen.hpp"
#include "perftkit/position_key.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/stats_subtree_table.hpp"
#if !PERFTKIT_DEVICE_PASS
#include "perftkit/two_ply_stats.hpp"
#endif

namespace perftkit::pipeline {

// The statistics of the `remaining` (1..2) plies below pos: on the host the core's two-ply
// count (the AVX-512 lanes where the unit has them), elsewhere every child's last ply.
PERFTKIT_HD_INLINE LeafStats shallow_subtree_stats(const Position& pos, int remaining) {
  LeafStats stats{};
#if !PERFTKIT_DEVICE_PASS
  if (remaining == 2) {
    if (pos.side_to_move == WHITE) two_ply_stats<WHITE>(pos, stats);
    else two_ply_stats<BLACK>(pos, stats);
    return stats;
  }
#endif
  ShallowStats sum{};
  for_each_child_or_self(pos, remaining == 2, [&](const Position& last) { last_ply_stats(last, sum, true); });
  stats += sum;
  return stats;
}

// known[i] = 1 and stats[i] = the stored statistics of positions[i] at `depth` plies where
// the table has them, else known[i] = 0.
struct ProbeStatsSubtrees {
  const Position* positions;
  LeafStats* stats;
  std::uint8_t* known;
  StatsTableView table;
  KeySet keys;
  int depth;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { run(i, prepare(i)); }
  // (f(i) = run(i, prepare(i)): the host's systems prepare a block and fetch its buckets
  // before they run it.)
  PERFTKIT_HD_INLINE PositionKey prepare(std::uint64_t i) const {
    return stats_subtree_key(position_key(positions[i], keys), positions[i], depth);
  }
  PERFTKIT_HD_INLINE const void* bucket_of(const PositionKey& key) const { return &stats_bucket(table, key); }
  PERFTKIT_HD_INLINE void run(std::uint64_t i, const PositionKey& key) const {
    LeafStats found;
    const bool hit = probe_stats(table, key, depth, found);
    if (hit) stats[i] = found;
    known[i] = hit ? 1 : 0;
  }
};

// offsets[i] = legal moves of positions[i] when its statistics are not known, else 0 (a
// hit has no children); offsets[n] = 0. Runs over n + 1 indices.
struct CountUnknownChildren {
  const Position* positions;
  const std::uint8_t* known;
  std::uint64_t* offsets;
  std::uint64_t n;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    offsets[i] = i < n && !known[i] ? count_moves(positions[i]) : 0;
  }
};

// The statistics of positions `remaining` (1..2) plies above the leaves that are not known
// (known: nullptr when none is), counted; at two plies also stored.
struct CountStatsLeafMisses {
  const Position* positions;
  LeafStats* stats;
  const std::uint8_t* known;
  StatsTableView table;
  KeySet keys;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    if (known && known[i]) return;
    const Position pos = positions[i];
    stats[i] = shallow_subtree_stats(pos, remaining);
    if (table && remaining >= 2)
      store_stats(table, stats_subtree_key(position_key(pos, keys), pos, remaining), remaining, stats[i]);
  }
};

// stats[i] of a parent that was not known: the sum of its child slots' representatives'
// statistics, stored at `depth` unless the node count saturated (every other counter counts
// leaves or moves into them, so none exceeds it; a saturated sum fails the run). A parent
// without children (known, or mate or stalemate) keeps its statistics, or gets none.
struct SumChildStats {
  const Position* parents;
  const std::uint8_t* known;
  const std::uint64_t* offsets;         // the parents' exclusive scan, n + 1 entries from the chunk's first
  std::uint64_t base;                   // offsets[0]: the chunk's first child slot
  const std::uint64_t* representative;  // per child slot
  const LeafStats* child_stats;         // per representative
  LeafStats* stats;
  StatsTableView table;
  KeySet keys;
  int depth;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    if (known[i]) return;
    LeafStats sum{};
    std::uint64_t nodes = 0;
    for (std::uint64_t k = offsets[i] - base, end = offsets[i + 1] - base; k < end; ++k) {
      const LeafStats& child = child_stats[representative[k]];
      sum += child;
      nodes = SaturatingAdd{}(nodes, child.count[NODES]);
    }
    sum.count[NODES] = nodes;
    stats[i] = sum;
    if (nodes != SATURATED && nodes != 0)
      store_stats(table, stats_subtree_key(position_key(parents[i], keys), parents[i], depth), depth, sum);
  }
};

// Whether stats[i]'s node count saturated.
struct StatsSaturated {
  const LeafStats* stats;

  PERFTKIT_HD bool operator()(std::uint64_t i) const { return stats[i].count[NODES] == SATURATED; }
};

}  // namespace perftkit::pipeline
