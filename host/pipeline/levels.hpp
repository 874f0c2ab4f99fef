// The pipeline's levels, written once against an execution system: count children, scan for
// offsets, generate children, merge identical positions (sort by key, then reduce_by_key on
// multiplicities with an exact position compare), and count the last two plies per node.
// g++ instantiates it with Thrust's OpenMP policy (omp_system.hpp), nvcc with the CUDA
// policy (cuda/pipeline_cuda_worker.cuh). Every call waits for the system to finish.
//
// A System provides: run(arena, n, body) (calls body(policy) with the Thrust execution
// policy that suits n elements, temporaries possibly from the arena, and returns what body
// returns), for_each_index(n, f) (f(i) for i in [0, n), waits), read(const T*) (one element
// to the host) and upload(dst, src, bytes).
#pragma once

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/cancellation.hpp"
#include "pipeline/frontier.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/arena.hpp"
#include "pipeline/chunks.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/sum128.hpp"
#include "pipeline/tally.hpp"

namespace perftkit::pipeline {

// Bytes a node of a level holds while it waits: its position and multiplicity.
inline constexpr std::size_t NODE_BYTES = sizeof(Position) + sizeof(std::uint64_t);
// Bytes per child that merging needs on top: key, permutation, merged multiplicity, the
// gathered position, and the sort's scratch (a second key and permutation buffer).
inline constexpr std::size_t MERGE_BYTES = 5 * sizeof(std::uint64_t) + sizeof(Position);
// Level memory that a batch of `nodes` positions could use below `remaining` plies if every
// level were expanded whole (about 40 children a position), doubled, at least 16 MiB: a cap
// on a worker's budget, so that a small run does not reserve a whole GPU. extra_child_bytes:
// what a mode keeps per child on top (the subtree mode's representative index and count).
inline std::size_t level_memory_estimate(std::size_t nodes, int remaining, std::size_t extra_child_bytes = 0) {
  constexpr double CHILDREN = 40, LIMIT = 1e18;
  double level = static_cast<double>(nodes), bytes = level * NODE_BYTES;
  for (int r = remaining; r > 2 && bytes < LIMIT; --r) {
    level *= CHILDREN;
    bytes += level * double(NODE_BYTES + MERGE_BYTES + extra_child_bytes);
  }
  bytes = std::min(2 * bytes + double(16 << 20), LIMIT);
  return static_cast<std::size_t>(bytes);
}

// Children per chunk: what fits, halved when more levels follow (they need room too), at
// most max_chunk_nodes when set.
inline std::uint64_t chunk_cap(std::uint64_t room, int child_remaining, const PipelineOptions& options) {
  std::uint64_t cap = room;
  if (child_remaining > 2) cap /= 2;
  if (options.max_chunk_nodes) cap = std::min<std::uint64_t>(cap, options.max_chunk_nodes);
  return cap;
}

template <typename System, typename Tally>
class LevelPipeline {
 public:
  using Total = typename Tally::Total;

  LevelPipeline(const System& system, Arena& arena, const PipelineOptions& options, PipelineCounters& counters)
      : system_(system), arena_(arena), options_(options), keys_(options.key_seed), counters_(counters) {}

  // Sum over i < n of multiplicities[i] x the tally of positions[i] below `remaining` plies
  // (perft, or its leaf statistics with remaining >= 1); both arrays live in the system's
  // memory. Throws OutOfWorkspace when a single position's children do not fit.
  Total count(Position* positions, std::uint64_t* multiplicities, std::uint64_t n, int remaining) {
    if (n == 0) return Total{};
    if (remaining <= 2) return count_leaves(positions, multiplicities, n, remaining);

    const ArenaScope scope(arena_);
    std::uint64_t* offsets = arena_.push<std::uint64_t>(n + 1);
    system_.for_each_index(n + 1, CountChildren{positions, offsets, n});
    system_.run(arena_, n, [&](auto policy) { thrust::exclusive_scan(policy, offsets, offsets + n + 1, offsets); });

    Total total{};
    for (std::uint64_t first = 0; first < n;) {
      throw_if_stopped(current_stop_flag());  // a computation stopped from outside ends between chunks
      const std::uint64_t base = system_.read(offsets + first);
      const std::uint64_t room = children_that_fit(remaining - 1);
      const std::uint64_t last =
          chunk_end(system_, arena_, offsets, first, n, base, chunk_cap(room, remaining - 1, options_));
      const std::uint64_t children = system_.read(offsets + last) - base;
      if (children > room) throw OutOfWorkspace{};
      total += expand(positions + first, multiplicities + first, offsets + first, last - first, base, children,
                      remaining - 1);
      first = last;
    }
    return total;
  }

 private:
  // Children a chunk may have with what is left of the arena, counting what merging and
  // the next level's offsets or leaf counts need while the chunk is alive.
  std::uint64_t children_that_fit(int child_remaining) const {
    const std::size_t scratch =
        std::max(options_.merge && child_remaining > 0 ? MERGE_BYTES : 0, LeafTally<Tally>::LEAF_BYTES);
    return pipeline::children_that_fit(arena_, NODE_BYTES + scratch);
  }

  // Generates the children of parents_count parents, merges them and counts their subtrees.
  Total expand(const Position* parents, const std::uint64_t* parent_multiplicities, const std::uint64_t* offsets,
               std::uint64_t parents_count, std::uint64_t base, std::uint64_t children, int child_remaining) {
    const ArenaScope scope(arena_);
    Position* positions = arena_.push<Position>(children);
    std::uint64_t* multiplicities = arena_.push<std::uint64_t>(children);
    system_.for_each_index(parents_count,
                           GenerateChildren{parents, parent_multiplicities, offsets, base, positions, multiplicities});
    ++counters_.chunks;
    counters_.generated += children;
    const std::uint64_t unique =
        options_.merge ? merge(positions, multiplicities, children, LeafTally<Tally>::clock_horizon(child_remaining))
                       : children;
    return count(positions, multiplicities, unique, child_remaining);
  }

  // Merges identical positions in place, adding their multiplicities; returns how many
  // remain (at the front). Nodes are sorted by key; neighbours merge only when the whole
  // positions agree (and their clocks, where the tally sees them), so a key collision can
  // cost a merge, never a count.
  std::uint64_t merge(Position* positions, std::uint64_t* multiplicities, std::uint64_t n, ClockHorizon clock) {
    const ArenaScope scope(arena_);
    std::uint64_t* keys = arena_.push<std::uint64_t>(n);
    std::uint64_t* order = arena_.push<std::uint64_t>(n);
    std::uint64_t* merged = arena_.push<std::uint64_t>(n);
    Position* gathered = arena_.push<Position>(n);
    const std::uint64_t unique = system_.run(arena_, n, [&](auto policy) {
      thrust::transform(policy, positions, positions + n, keys, SortKey{keys_, options_.key_mask, clock});
      thrust::sequence(policy, order, order + n);
      thrust::sort_by_key(policy, keys, keys + n, order);
      // The first node of each run of identical positions stands for the run (written over
      // the keys, which are no longer needed).
      const auto ends =
          thrust::reduce_by_key(policy, order, order + n, thrust::make_permutation_iterator(multiplicities, order),
                                keys, merged, SameTreeAt{positions, clock}, SaturatingAdd{});
      const std::uint64_t runs = std::uint64_t(ends.first - keys);
      if (thrust::any_of(policy, merged, merged + runs, IsSaturated{}))
        throw std::overflow_error("pipeline: a merged multiplicity exceeds 64 bits");
      thrust::gather(policy, keys, keys + runs, positions, gathered);
      thrust::copy(policy, gathered, gathered + runs, positions);
      thrust::copy(policy, merged, merged + runs, multiplicities);
      return runs;
    });
    counters_.merged_away += n - unique;
    return unique;
  }

  // The last plies (remaining <= 2) per node, times its multiplicity.
  Total count_leaves(const Position* positions, const std::uint64_t* multiplicities, std::uint64_t n, int remaining) {
    const ArenaScope scope(arena_);
    const Total total =
        LeafTally<Tally>::count(system_, arena_, positions, multiplicities, n, remaining, options_, counters_);
    counters_.leaf_nodes += n;
    return total;
  }

  const System& system_;
  Arena& arena_;
  const PipelineOptions& options_;
  const KeySet keys_;
  PipelineCounters& counters_;
};

// The positions and multiplicities of frontier[first, first + count) in the system's memory.
struct SpanNodes {
  Position* positions;
  std::uint64_t* multiplicities;
};

// Copies frontier[first, first + count) into the arena (which must outlive the use). Throws
// OutOfWorkspace when the arena cannot hold it, std::overflow_error for a multiplicity that
// does not fit 64 bits.
template <typename System>
SpanNodes upload_span(const System& system, Arena& arena, const std::vector<FrontierNode>& frontier, std::size_t first,
                      std::size_t count) {
  std::vector<Position> positions(count);
  std::vector<std::uint64_t> multiplicities(count);
  for (std::size_t i = 0; i < count; ++i) {
    positions[i] = frontier[first + i].position;
    // The systems keep multiplicities in 64 bits; SATURATED marks an overflow there.
    if (frontier[first + i].multiplicity >= SATURATED)
      throw std::overflow_error("pipeline: a frontier multiplicity exceeds 64 bits");
    multiplicities[i] = std::uint64_t(frontier[first + i].multiplicity);
  }
  SpanNodes nodes{arena.push<Position>(count), arena.push<std::uint64_t>(count)};
  system.upload(nodes.positions, positions.data(), count * sizeof(Position));
  system.upload(nodes.multiplicities, multiplicities.data(), count * sizeof(std::uint64_t));
  return nodes;
}

// Copies frontier[span] into the arena and counts it: the sum of multiplicity x the tally.
// The errors of upload_span and LevelPipeline::count.
template <typename Tally, typename System>
typename Tally::Total count_span(const System& system, Arena& arena, const std::vector<FrontierNode>& frontier,
                                 std::size_t first, std::size_t count, int remaining, const PipelineOptions& options,
                                 PipelineCounters& counters) {
  const ArenaScope scope(arena);
  const SpanNodes nodes = upload_span(system, arena, frontier, first, count);
  LevelPipeline<System, Tally> levels(system, arena, options, counters);
  return levels.count(nodes.positions, nodes.multiplicities, count, remaining);
}

}  // namespace perftkit::pipeline
