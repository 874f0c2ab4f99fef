// The two-ply statistics of several children of one node, counted together: each child's
// own children (the last ply's parents) go into one buffer, and the AVX-512 lanes run across
// them, so that a child's few moves do not leave its last batch of eight mostly empty (a
// child of the start position's subtrees has about thirty). What TwoPlyBatch does for node
// counts. Children whose leaves may be drawn, and every child without AVX-512, are counted
// alone by two_ply_stats().
#pragma once

#include "perftkit/two_ply_stats.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if !PERFTKIT_DEVICE_PASS

// Us: the side to move at the node whose children are added (each child has ~Us to move).
template <Color Us>
class TwoPlyStatsBatch {
 public:
  // Counts child's two-ply statistics, tagged `tag`: done(tag, stats) is called once they are
  // counted, by this add() or a later one, or by flush().
  template <typename Done>
  PERFTKIT_FORCEINLINE void add(const Position& child, int tag, Done&& done) {
#if PERFTKIT_HAS_AVX512_COUNT
    if (no_leaf_drawn_two_plies_below(child)) {
      // A flush comes before a child whose king of Us stands elsewhere (the node's move was a
      // king move), so that a batch's lanes mostly share that king (tally_lanes()).
      const Bitboard king = child.kings & child.by_color[Us];
      if (n_ > Buffer::CAPACITY - MAX_LEGAL_MOVES || parents_ == MAX_PARENTS || (parents_ && king != king_))
        flush(done);
      king_ = king;
      stats_[parents_] = LeafStats{};
      tags_[parents_] = tag;
      grandchildren_.template append_children<~Us>(child, n_, [&](int full) { return spill(full, done); });
      ends_[parents_++] = n_;
      return;
    }
#endif
    LeafStats stats{};
    two_ply_stats<~Us>(child, stats);
    done(tag, stats);
  }

  // Counts every child added and hands each one's statistics to done.
  template <typename Done>
  void flush(Done&& done) {
#if PERFTKIT_HAS_AVX512_COUNT
    if (!parents_) return;
    last_ply_stats_of<Us>(grandchildren_, ends_, parents_, stats_);
    for (int p = 0; p < parents_; ++p) done(tags_[p], stats_[p]);
    n_ = parents_ = 0;
#else
    (void)done;
#endif
  }

#if PERFTKIT_HAS_AVX512_COUNT
 private:
  using Buffer = ChildBuffer<2 * MAX_LEGAL_MOVES>;
  static constexpr int MAX_PARENTS = 32;

  // A buffer without room while a child (an invented position: more moves than a legal one
  // has) is added, with `full` children of children in all: every one is counted, the
  // earlier children are done, and the one being added goes on from the buffer's start with
  // the statistics counted so far.
  template <typename Done>
  int spill(int full, Done& done) {
    ends_[parents_] = full;
    last_ply_stats_of<Us>(grandchildren_, ends_, parents_ + 1, stats_);
    for (int p = 0; p < parents_; ++p) done(tags_[p], stats_[p]);
    stats_[0] = stats_[parents_];
    tags_[0] = tags_[parents_];
    parents_ = 0;
    return 0;
  }

  Buffer grandchildren_;
  LeafStats stats_[MAX_PARENTS];
  int tags_[MAX_PARENTS], ends_[MAX_PARENTS];
  Bitboard king_ = 0;
  int n_ = 0, parents_ = 0;
#endif
};

#endif

PERFTKIT_ISA_END
}  // namespace perftkit
