// Cutting a level into chunks that the arena holds: the parents of a chunk are a run whose
// children (or child slots) fit in what is left, found on the offsets' exclusive scan.
#pragma once

#include <thrust/binary_search.h>

#include <cstdint>

#include "pipeline/arena.hpp"

namespace perftkit::pipeline {

// Room for the alignment of a chunk's buffers and the fixed part of Thrust's scratch: this
// many bytes plus 1/SLACK_SHARE of what is free.
inline constexpr std::size_t ALIGNMENT_SLACK = 16 * Arena::ALIGNMENT;
inline constexpr std::size_t SLACK_SHARE = 32;

// Children of `child_bytes` bytes each (everything a child needs while its chunk is alive)
// that fit in what is left of the arena, after the alignment and Thrust's fixed scratch.
inline std::uint64_t children_that_fit(const Arena& arena, std::size_t child_bytes) {
  const std::size_t free_bytes = arena.available();
  const std::size_t slack = ALIGNMENT_SLACK + free_bytes / SLACK_SHARE;
  if (free_bytes <= slack) return 0;
  return (free_bytes - slack) / child_bytes;
}

// The parents [first, last) of the next chunk: as many as have at most `cap` children
// together (offsets: the exclusive scan of the child counts of n parents, base =
// offsets[first]), at least one. The caller checks that the chunk's children fit.
template <typename System>
std::uint64_t chunk_end(const System& system, Arena& arena, const std::uint64_t* offsets, std::uint64_t first,
                        std::uint64_t n, std::uint64_t base, std::uint64_t cap) {
  const std::uint64_t* next = system.run(arena, 0, [&](auto policy) {
    return thrust::upper_bound(policy, offsets + first + 1, offsets + n + 1, base + cap);
  });
  const std::uint64_t last = std::uint64_t(next - offsets) - 1;
  return last == first ? first + 1 : last;  // one position always goes, if memory holds it
}

}  // namespace perftkit::pipeline
