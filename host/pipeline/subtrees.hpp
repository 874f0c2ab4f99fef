// The pipeline's transposition-table mode for node counts: the levels compute the subtree
// count of every node (unweighted, 64-bit) instead of weighted leaf totals, so each count can
// be stored in a SubtreeTableView and found again by a later chunk, level or batch.
//
// A level of n nodes at `remaining` plies: every node is probed first (a hit has its count
// and no children); the misses are expanded in chunks, their children merged by exact
// position compare while each child slot keeps the index of its merged representative, the
// representatives are counted one level down, and each parent sums its own slots' counts and
// stores the sum. Leaves probe and store at two plies. Written once against a System as
// levels.hpp; every call waits for the system.
#pragma once

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/logical.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/cancellation.hpp"
#include "pipeline/levels.hpp"
#include "pipeline/subtree_functors.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit::pipeline {

// What a child keeps while its chunk is alive, in the subtree mode: its position, the index
// of its merged representative and the representative's count.
inline constexpr std::size_t SUBTREE_CHILD_BYTES = sizeof(Position) + 2 * sizeof(std::uint64_t);
// ...on top of NODE_BYTES + MERGE_BYTES, for level_memory_estimate.
inline constexpr std::size_t SUBTREE_EXTRA_BYTES = SUBTREE_CHILD_BYTES - NODE_BYTES;
// What a child slot three plies above the leaves keeps: its move, its parent's index, its
// subtree's count and whether the table had it (SubtreePipeline::count_slots).
inline constexpr std::size_t SLOT_BYTES = sizeof(Move) + 2 * sizeof(std::uint64_t) + 1;

// Moves one position of each run of identical children (the same tree, and the same clock
// where `clock` sees it) to the front, in place; returns how many there are, with
// representative[k] = the index of child slot k's one. Without merging every child
// represents itself. The subtree modes' merge (node counts and statistics).
template <typename System>
std::uint64_t merge_to_representatives(const System& system, Arena& arena, const PipelineOptions& options,
                                       const KeySet& sort_keys, ClockHorizon clock, Position* positions,
                                       std::uint64_t* representative, std::uint64_t n, PipelineCounters& counters) {
  if (!options.merge) {
    system.run(arena, n, [&](auto policy) { thrust::sequence(policy, representative, representative + n); });
    return n;
  }
  const ArenaScope scope(arena);
  std::uint64_t* keys = arena.push<std::uint64_t>(n);
  std::uint64_t* order = arena.push<std::uint64_t>(n);
  std::uint64_t* first_of_run = arena.push<std::uint64_t>(n);
  Position* gathered = arena.push<Position>(n);
  const SameTreeAt same{positions, clock};
  system.run(arena, n, [&](auto policy) {
    thrust::transform(policy, positions, positions + n, keys, SortKey{sort_keys, options.key_mask, clock});
    thrust::sequence(policy, order, order + n);
    thrust::sort_by_key(policy, keys, keys + n, order);
    // The keys are no longer needed: they become the run numbers.
    thrust::transform(policy, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
                      keys, RunStart{order, same});
    thrust::inclusive_scan(policy, keys, keys + n, keys);
  });
  const std::uint64_t unique = system.read(keys + n - 1);
  system.for_each_index(n, AssignRepresentatives{order, keys, representative, first_of_run});
  system.run(arena, unique, [&](auto policy) {
    thrust::gather(policy, first_of_run, first_of_run + unique, positions, gathered);
    thrust::copy(policy, gathered, gathered + unique, positions);
  });
  counters.merged_away += n - unique;
  return unique;
}

template <typename System>
class SubtreePipeline {
 public:
  SubtreePipeline(const System& system, Arena& arena, const PipelineOptions& options, SubtreeTableView table,
                  PipelineCounters& counters)
      : system_(system),
        arena_(arena),
        options_(options),
        table_(table),
        sort_keys_(options.key_seed),
        table_keys_(options.hash_seed),
        counters_(counters) {}

  // counts[i] = perft(positions[i], remaining) for i < n (arrays in the system's memory),
  // through the table. Throws OutOfWorkspace when a single position's children do not fit,
  // std::overflow_error when a count exceeds 64 bits.
  void count(const Position* positions, std::uint64_t* counts, std::uint64_t n, int remaining) {
    if (n == 0) return;
    if (remaining < 2) {
      system_.for_each_index(n, LeafCount{positions, counts, remaining});
      counters_.leaf_nodes += n;
      return;
    }
    system_.for_each_index(n, ProbeSubtrees{positions, counts, table_, table_keys_, remaining});
    const std::uint64_t misses = system_.run(arena_, n, [&](auto policy) {
      return std::uint64_t(thrust::count(policy, counts, counts + n, UNKNOWN_COUNT));
    });
    counters_.table_probes += n;
    counters_.table_hits += n - misses;
    if (remaining == 2) {
      if (misses) system_.for_each_index(n, CountLeafMisses{positions, counts, table_, table_keys_, remaining});
      counters_.leaf_nodes += misses;
    } else {
      count_misses(positions, counts, n, remaining);
    }
    const bool saturated =
        system_.run(arena_, n, [&](auto policy) { return thrust::any_of(policy, counts, counts + n, IsSaturated{}); });
    if (saturated) throw std::overflow_error("pipeline: a subtree count exceeds 64 bits");
  }

 private:
  // The misses' children in chunks, as LevelPipeline::count.
  void count_misses(const Position* positions, std::uint64_t* counts, std::uint64_t n, int remaining) {
    const ArenaScope scope(arena_);
    std::uint64_t* offsets = arena_.push<std::uint64_t>(n + 1);
    system_.for_each_index(n + 1, CountMissChildren{positions, counts, offsets, n});
    system_.run(arena_, n, [&](auto policy) { thrust::exclusive_scan(policy, offsets, offsets + n + 1, offsets); });
    for (std::uint64_t first = 0; first < n;) {
      throw_if_stopped(current_stop_flag());  // a computation stopped from outside ends between chunks
      const std::uint64_t base = system_.read(offsets + first);
      const bool as_slots = remaining == 3 && options_.slots;
      const std::uint64_t room = as_slots ? pipeline::children_that_fit(arena_, SLOT_BYTES) : children_that_fit();
      const std::uint64_t last =
          chunk_end(system_, arena_, offsets, first, n, base, chunk_cap(room, remaining - 1, options_));
      const std::uint64_t children = system_.read(offsets + last) - base;
      if (children > room) throw OutOfWorkspace{};
      if (as_slots) count_slots(positions + first, counts + first, offsets + first, last - first, base, children);
      else expand(positions + first, counts + first, offsets + first, last - first, base, children, remaining);
      first = last;
    }
  }

  // Children a chunk may have: what each keeps (SUBTREE_CHILD_BYTES), plus the larger of
  // merging's scratch and the next level's offsets, which come and go while it is alive.
  std::uint64_t children_that_fit() const {
    const std::size_t scratch = std::max<std::size_t>(options_.merge ? MERGE_BYTES : 0, sizeof(std::uint64_t));
    return pipeline::children_that_fit(arena_, SUBTREE_CHILD_BYTES + scratch);
  }

  // Generates the children of parents_count parents, merges them, counts the
  // representatives one level down and sums each parent's slots into its count.
  void expand(const Position* parents, std::uint64_t* counts, const std::uint64_t* offsets, std::uint64_t parents_count,
              std::uint64_t base, std::uint64_t children, int remaining) {
    const ArenaScope scope(arena_);
    Position* positions = arena_.push<Position>(children);
    std::uint64_t* representative = arena_.push<std::uint64_t>(children);
    std::uint64_t* child_counts = nullptr;
    if (children) {
      system_.for_each_index(parents_count, GenerateChildren{parents, nullptr, offsets, base, positions, nullptr});
      ++counters_.chunks;
      counters_.generated += children;
      const std::uint64_t unique = merge_to_representatives(system_, arena_, options_, sort_keys_, CLOCK_NEVER_COUNTS,
                                                            positions, representative, children, counters_);
      child_counts = arena_.push<std::uint64_t>(unique);
      count(positions, child_counts, unique, remaining - 1);
    }
    system_.for_each_index(parents_count, SumChildSubtrees{parents, offsets, base, representative, child_counts, counts,
                                                           table_, table_keys_, remaining});
  }

  // The children of parents_count parents three plies above the leaves, as slots: each
  // parent's moves are listed, every slot's two-ply subtree is found in the table or counted
  // and stored, and each parent sums its slots and stores the sum. No child position is
  // written and none merged: slots of one parent are distinct positions, and a
  // transposition between parents is found in the table.
  void count_slots(const Position* parents, std::uint64_t* counts, const std::uint64_t* offsets,
                   std::uint64_t parents_count, std::uint64_t base, std::uint64_t children) {
    const ArenaScope scope(arena_);
    Move* moves = arena_.push<Move>(children);
    std::uint64_t* parent_of = arena_.push<std::uint64_t>(children);
    std::uint64_t* child_counts = arena_.push<std::uint64_t>(children);
    std::uint8_t* hits = arena_.push<std::uint8_t>(children);
    if (children) {
      system_.for_each_index(parents_count, ListSlotMoves{parents, offsets, base, moves, parent_of});
      system_.for_each_index(children,
                             CountSlotSubtrees{parents, moves, parent_of, child_counts, hits, table_, table_keys_, 2});
      const std::uint64_t found = system_.run(arena_, children, [&](auto policy) {
        return std::uint64_t(thrust::count(policy, hits, hits + children, std::uint8_t(1)));
      });
      ++counters_.chunks;
      counters_.generated += children;
      counters_.table_probes += children;
      counters_.table_hits += found;
      counters_.leaf_nodes += children - found;
    }
    system_.for_each_index(
        parents_count, SumChildSubtrees{parents, offsets, base, nullptr, child_counts, counts, table_, table_keys_, 3});
  }

  const System& system_;
  Arena& arena_;
  const PipelineOptions& options_;
  const SubtreeTableView table_;
  const KeySet sort_keys_;
  const KeySet table_keys_;
  PipelineCounters& counters_;
};

// Copies frontier[span] into the arena, counts every node's subtree through the table and
// returns the sum of multiplicity x count, exact in 128 bits. The errors of upload_span and
// SubtreePipeline::count.
template <typename System>
u128 count_span_subtrees(const System& system, Arena& arena, SubtreeTableView table,
                         const std::vector<FrontierNode>& frontier, std::size_t first, std::size_t count, int remaining,
                         const PipelineOptions& options, PipelineCounters& counters) {
  const ArenaScope scope(arena);
  const SpanNodes nodes = upload_span(system, arena, frontier, first, count);
  std::uint64_t* counts = arena.push<std::uint64_t>(count);
  SubtreePipeline<System> levels(system, arena, options, table, counters);
  levels.count(nodes.positions, counts, count, remaining);
  return weighted_sum(system, arena, count, WeightedCount{nodes.multiplicities, counts});
}

}  // namespace perftkit::pipeline
