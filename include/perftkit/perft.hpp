// Perft: the number of leaf nodes of the legal move tree, with the last ply bulk-counted.
#pragma once

#include "perftkit/count_moves_avx512.hpp"
#include "perftkit/lane_children_avx512.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if !PERFTKIT_DEVICE_PASS
// The children of one node (or of a few), kept for one counting loop: where the AVX-512
// counter runs, in its own layout (field by field), else side by side.
template <int Capacity = MAX_LEGAL_MOVES>
struct ChildBuffer {
  static constexpr int CAPACITY = Capacity;
#if PERFTKIT_HAS_AVX512_COUNT
  avx512::PositionLanes<Capacity + 8> lanes;  // eight past the capacity: see LaneChildSink
  PERFTKIT_FORCEINLINE void set(int i, const Position& child) { lanes.set(i, child); }
  Position get(int i, Color side_to_move) const { return lanes.get(i, side_to_move); }
#else
  Position positions[Capacity];
  PERFTKIT_FORCEINLINE void set(int i, const Position& child) { positions[i] = child; }
  Position get(int i, Color) const { return positions[i]; }
#endif

  // Adds the child of every legal move of pos (Us to move) from n on, advancing n;
  // make_room(n) is called when the buffer lacks room for the next few (eight at most), and
  // returns the place to go on from, lower.
  template <Color Us, typename MakeRoom>
  PERFTKIT_FORCEINLINE void append_children(const Position& pos, int& n, MakeRoom&& make_room) {
#if PERFTKIT_HAS_AVX512_CHILDREN
    avx512::append_children<Us, Capacity>(pos, lanes, n, make_room);
#else
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
      if (n == Capacity) [[unlikely]]
        n = make_room(n);
      set(n++, child);
    });
#endif
  }
};

// Sum of the legal move counts of the first n children, each with Us to move: one tight loop,
// called once per node rather than inlined into every batch of the generator.
template <Color Us>
[[gnu::noinline]] std::uint64_t count_moves_of(const ChildBuffer<>& children, int n) {
#if PERFTKIT_HAS_AVX512_COUNT
  std::uint64_t extra = 0;
  avx512::V counts = _mm512_setzero_si512();
  for (int i = 0; i < n; i += 8)
    counts = counts + avx512::count_moves_lanes<Us>(children.lanes, i, n - i < 8 ? n - i : 8, extra);
  return avx512::lane_sum(counts) + extra;
#else
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += count_moves<Us>(children.positions[i]);
  return total;
#endif
}

// Leaf count two plies below pos, with Us to move: children first, then one counting loop
// (a GPU thread keeps the single pass: it has no stack to spare). Invented positions (a FEN
// full of queens) may have more moves than the buffer holds: a full one is counted and reused.
template <Color Us>
std::uint64_t two_ply_leaves(const Position& pos) {
  ChildBuffer<> children;
  int n = 0;
  std::uint64_t nodes = 0;
  children.template append_children<Us>(pos, n, [&](int full) {
    nodes += count_moves_of<~Us>(children, full);
    return 0;
  });
  return nodes + count_moves_of<~Us>(children, n);
}

// The legal move counts of the first n positions of children, each with Us to move, into
// counts[0, n) (a whole batch of eight is written: counts has room to the buffer's end).
template <Color Us, int Capacity>
[[gnu::noinline]] void count_each(const ChildBuffer<Capacity>& children, int n, std::uint64_t* counts) {
#if PERFTKIT_HAS_AVX512_COUNT
  for (int i = 0; i < n; i += 8) {
    std::uint64_t checkers[8];
    avx512::count_moves_and_checkers<Us>(children.lanes, i, n - i < 8 ? n - i : 8,
                                         *reinterpret_cast<std::uint64_t(*)[8]>(counts + i), checkers);
  }
#else
  for (int i = 0; i < n; ++i) counts[i] = count_moves<Us>(children.positions[i]);
#endif
}

// The two-ply subtrees of a few children of one node (Us to move there), counted in one
// loop: one child's grandchildren rarely fill their last batch of eight, the gathered ones
// of several leave one partly empty batch for all. A flush comes before a child whose Us
// king stands elsewhere (the node's king moves), so that a batch's lanes share that king
// and the counter finds its rays once.
template <Color Us>
class TwoPlyBatch {
 public:
  // Adds child's two-ply subtree (child: ~Us to move), tagged `tag`; done(tag, leaves) is
  // called once it is counted, by this add() or a later one, or by flush().
  template <typename Done>
  PERFTKIT_FORCEINLINE void add(const Position& child, int tag, Done&& done) {
    const Bitboard counted_king = child.kings & child.by_color[Us];
    if (n_ > Buffer::CAPACITY - MAX_LEGAL_MOVES || parents_ == MAX_PARENTS || (parents_ && counted_king != king_))
      flush(done);
    king_ = counted_king;
    spilled_[parents_] = 0;
    const int first = n_;
    grandchildren_.template append_children<~Us>(child, n_, [&](int full) { return spill(first, full); });
    tags_[parents_] = tag;
    ends_[parents_++] = n_;
  }

  // Counts every subtree added and hands each one's leaves to done.
  template <typename Done>
  void flush(Done&& done) {
    if (!parents_) return;
    count_each<Us>(grandchildren_, n_, counts_);
    int at = 0;
    for (int p = 0; p < parents_; ++p) {
      std::uint64_t leaves = spilled_[p];
      for (; at < ends_[p]; ++at) leaves += counts_[at];
      done(tags_[p], leaves);
    }
    n_ = parents_ = 0;
  }

 private:
  using Buffer = ChildBuffer<2 * MAX_LEGAL_MOVES>;
  static constexpr int MAX_PARENTS = Buffer::CAPACITY;

  // A buffer without room while one child (an invented position: more than MAX_LEGAL_MOVES
  // moves) is added, with `full` grandchildren in all: the child's so far, from `first` on,
  // are counted into its spilled_ and dropped (first is where it goes on); the earlier
  // children's stay for the flush.
  int spill(int first, int full) {
    count_each<Us>(grandchildren_, full, counts_);
    for (int i = first; i < full; ++i) spilled_[parents_] += counts_[i];
    return first;
  }

  Buffer grandchildren_;
  alignas(64) std::uint64_t counts_[Buffer::CAPACITY];
  int tags_[MAX_PARENTS], ends_[MAX_PARENTS];
  std::uint64_t spilled_[MAX_PARENTS];
  Bitboard king_ = 0;
  int n_ = 0, parents_ = 0;
};
#endif

template <Color Us>
PERFTKIT_HD std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 1) return depth == 1 ? count_moves<Us>(pos) : 1;
  std::uint64_t nodes = 0;
  if (depth == 2) {
#if PERFTKIT_DEVICE_PASS
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += count_moves<~Us>(child); });
#else
    nodes = two_ply_leaves<Us>(pos);
#endif
  } else {
#if !PERFTKIT_DEVICE_PASS
    if (depth == 3) {
      TwoPlyBatch<Us> batch;
      const auto counted = [&](int, std::uint64_t leaves) { nodes += leaves; };
      for_each_legal_move<Us>(pos, [&](const Position& child, Move) { batch.add(child, 0, counted); });
      batch.flush(counted);
      return nodes;
    }
#endif
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += perft<~Us>(child, depth - 1); });
  }
  return nodes;
}

// Leaf count of the legal move tree of the given depth (perft(0) = 1). Fits 64 bits for
// every depth a single call can finish; drivers sum subtrees in 128 bits.
PERFTKIT_HD inline std::uint64_t perft(const Position& pos, int depth) {
  return pos.side_to_move == WHITE ? perft<WHITE>(pos, depth) : perft<BLACK>(pos, depth);
}

PERFTKIT_ISA_END
}  // namespace perftkit
