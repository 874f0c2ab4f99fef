// The CPU core's transposition table: the subtree table that the pipeline uses too
// (pipeline/subtree_table.hpp: a lossy, lock-free table of subtree counts keyed by 128-bit
// position key and depth, every slot verified on read), in memory that is mapped and faulted
// in up front. Neither of its arrays needs a power of two of buckets, so a table can be sized
// to what a perft stores (hash_sizing.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "perft/table_memory.hpp"
#include "perftkit/position_key.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit {

class PerftTable {
 public:
  // A table of at most `bytes` bytes (at least one bucket), laid out as every subtree table
  // (SubtreeTableLayout: from 8 MiB up, two-ply subtrees in their own buckets). Its pages are
  // faulted in up front on `threads` threads. Throws std::bad_alloc when the memory cannot
  // be mapped.
  explicit PerftTable(std::size_t bytes, unsigned threads = 1);

  // The stored count of the subtree of `depth` plies under the keyed position, if present.
  bool probe(const PositionKey& key, int depth, std::uint64_t& count) const;

  // Asks the memory for the bucket a probe or store of (key, depth) will touch.
  PERFTKIT_FORCEINLINE void prefetch(const PositionKey& key, int depth) const {
    prefetch_line(view_.bucket_of(key, depth));
  }

  // Stores a count; depth must be 1..255. Two-ply counts above the layout's MAX_TWO_PLY_COUNT (not
  // reachable in legal chess: at most 218^2) and deeper ones above MAX_DEEP_COUNT are not
  // kept (a miss later, never a wrong count). A full deep bucket gives up its shallowest
  // entry.
  void store(const PositionKey& key, int depth, std::uint64_t count);

  std::size_t bytes() const { return view_.layout.bytes(); }
  std::size_t two_ply_bytes() const { return std::size_t(view_.layout.two_ply_buckets()) * sizeof(SubtreeBucket); }

 private:
  TableMemory memory_;
  SubtreeTableView view_;
};

}  // namespace perftkit
