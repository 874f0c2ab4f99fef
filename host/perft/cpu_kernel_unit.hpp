// The body of one level of CPU kernels (cpu_kernels.hpp), included by exactly one unit per
// level, which is compiled for that level's instructions. Everything here is in the core's
// per-instruction-set namespace or in an unnamed one, so no other unit links to this copy.
#pragma once

#include <memory>
#include <vector>

#include "perft/cpu_kernels.hpp"
#include "perft/stats_table.hpp"
#include "perftkit/classify_batch.hpp"
#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
#include "perftkit/two_ply_stats.hpp"
#include "perftkit/two_ply_stats_batch.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN
namespace {

// The children of pos, handed to descend(children, keys, n) a whole move list at a time
// with key_of(child) as each one's key, once prefetch(key) has asked the memory for every
// child's bucket. A node plays all its moves first, then prefetches back to back, and only
// then descends, so a table's misses overlap instead of stalling one by one. Back to back
// matters: a prefetch whose page is not in the TLB holds the core for its page walk (about
// 90 ns on a KVM guest), and only prefetches issued together walk in parallel.
template <Color Us, typename KeyOf, typename Prefetch, typename Descend>
PERFTKIT_FORCEINLINE void descend_prefetched(const Position& pos, KeyOf key_of, Prefetch prefetch, Descend descend) {
  Position children[MAX_LEGAL_MOVES];
  PositionKey child_keys[MAX_LEGAL_MOVES];
  int n = 0;
  const auto flush = [&] {
    for (int i = 0; i < n; ++i) prefetch(child_keys[i]);
    descend(children, child_keys, n);
    n = 0;
  };
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
    if (n == MAX_LEGAL_MOVES) [[unlikely]]
      flush();
    children[n] = child;
    child_keys[n] = key_of(child);
    ++n;
  });
  flush();
}

// Leaf count below pos (depth >= 2), whose key is key; children through descend_prefetched.
template <Color Us>
std::uint64_t hashed_subtree(const Position& pos, const PositionKey& key, int depth, PerftTable& table,
                             const KeySet& keys) {
  std::uint64_t nodes = 0;
  if (table.probe(key, depth, nodes)) return nodes;
  if (depth == 2) {
    nodes = two_ply_leaves<Us>(pos);
  } else {
    const auto key_of = [&](const Position& child) { return position_key(child, keys); };
    const auto prefetch = [&](const PositionKey& child_key) { table.prefetch(child_key, depth - 1); };
    descend_prefetched<Us>(pos, key_of, prefetch, [&](const Position* children, const PositionKey* child_keys, int n) {
      if (depth == 3) {
        TwoPlyBatch<Us> batch;
        const auto counted = [&](int child, std::uint64_t leaves) {
          table.store(child_keys[child], 2, leaves);
          nodes += leaves;
        };
        for (int i = 0; i < n; ++i) {
          std::uint64_t leaves;
          if (table.probe(child_keys[i], 2, leaves)) nodes += leaves;
          else batch.add(children[i], i, counted);
        }
        batch.flush(counted);
      } else {
        for (int i = 0; i < n; ++i) nodes += hashed_subtree<~Us>(children[i], child_keys[i], depth - 1, table, keys);
      }
    });
  }
  table.store(key, depth, nodes);
  return nodes;
}

std::uint64_t unit_perft(const Position& pos, int depth) { return perft(pos, depth); }

std::uint64_t unit_perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys) {
  if (depth <= 1) return perft(pos, depth);
  const PositionKey key = position_key(pos, keys);
  return pos.side_to_move == WHITE ? hashed_subtree<WHITE>(pos, key, depth, table, keys)
                                   : hashed_subtree<BLACK>(pos, key, depth, table, keys);
}

void unit_perft_stats(const Position& pos, int depth, LeafStats& stats) { perft_stats(pos, depth, stats); }

// Adds the statistics the table holds for the subtree of `depth` plies under the stats key to
// stats, counting the probe (and the hit) in use; false when it holds none.
PERFTKIT_FORCEINLINE bool add_stored_stats(const StatsTableView& table, const PositionKey& key, int depth,
                                           LeafStats& stats, StatsTableUse& use) {
  LeafStats stored;
  ++use.probes;
  if (!probe_stats(table, key, depth, stored)) return false;
  ++use.hits;
  stats += stored;
  return true;
}

// Adds the leaf statistics below pos (depth >= 2), whose stats key is key, to stats, through
// the statistics table, children through descend_prefetched; two-ply subtrees are counted by
// two_ply_stats(), those below one node together (TwoPlyStatsBatch).
template <Color Us>
void hashed_stats_subtree(const Position& pos, const PositionKey& key, int depth, const StatsTableView& table,
                          const KeySet& keys, LeafStats& stats, StatsTableUse& use) {
  if (add_stored_stats(table, key, depth, stats, use)) return;
  LeafStats subtree{};
  if (depth == 2) {
    two_ply_stats<Us>(pos, subtree);
  } else {
    const auto key_of = [&](const Position& child) {
      return stats_subtree_key(position_key(child, keys), child, depth - 1);
    };
    const auto prefetch = [&](const PositionKey& child_key) { prefetch_line(&stats_bucket(table, child_key)); };
    descend_prefetched<Us>(pos, key_of, prefetch, [&](const Position* children, const PositionKey* child_keys, int n) {
      if (depth == 3) {
        // The children that miss are counted together (TwoPlyStatsBatch), then stored.
        TwoPlyStatsBatch<Us> batch;
        const auto counted = [&](int child, const LeafStats& child_stats) {
          use.stores += store_stats(table, child_keys[child], 2, child_stats);
          subtree += child_stats;
        };
        for (int i = 0; i < n; ++i)
          if (!add_stored_stats(table, child_keys[i], 2, subtree, use)) batch.add(children[i], i, counted);
        batch.flush(counted);
      } else {
        for (int i = 0; i < n; ++i)
          hashed_stats_subtree<~Us>(children[i], child_keys[i], depth - 1, table, keys, subtree, use);
      }
    });
  }
  use.stores += store_stats(table, key, depth, subtree);
  stats += subtree;
}

void unit_perft_stats_hashed(const Position& pos, int depth, StatsTable& table, const KeySet& keys, LeafStats& stats,
                             StatsTableUse& use) {
  if (depth <= 1) {
    perft_stats(pos, depth, stats);
    return;
  }
  const PositionKey key = stats_subtree_key(position_key(pos, keys), pos, depth);
  const StatsTableView view = table.view();
  if (pos.side_to_move == WHITE) hashed_stats_subtree<WHITE>(pos, key, depth, view, keys, stats, use);
  else hashed_stats_subtree<BLACK>(pos, key, depth, view, keys, stats, use);
}

void unit_classify_batch(const Position* positions, const std::uint8_t* repetitions, std::size_t n,
                         Classification* out) {
  classify_batch(positions, repetitions, n, out);
}

template <Color Us>
std::vector<Position> children_for_counting(const Position& pos) {
  const auto buffer = std::make_unique<ChildBuffer<>>();
  std::vector<Position> children;
  const auto take = [&](int n) {
    for (int i = 0; i < n; ++i) children.push_back(buffer->get(i, ~Us));
    return 0;
  };
  int n = 0;
  buffer->template append_children<Us>(pos, n, take);
  take(n);
  return children;
}

std::vector<Position> unit_children_for_counting(const Position& pos) {
  return pos.side_to_move == WHITE ? children_for_counting<WHITE>(pos) : children_for_counting<BLACK>(pos);
}

// The level's table of kernels: addresses only, fixed at link time, so that a level the CPU
// lacks runs no code of its own before it is chosen.
consteval CpuKernels unit_kernels(const char* name) {
  return CpuKernels{name,
                    &unit_perft,
                    &unit_perft_hashed,
                    &unit_perft_stats,
                    &unit_perft_stats_hashed,
                    &unit_classify_batch,
                    &unit_children_for_counting};
}

}  // namespace
PERFTKIT_ISA_END
}  // namespace perftkit
