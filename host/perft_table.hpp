// A lossy, lock-free table of subtree node counts keyed by (128-bit position key, depth).
// Readers validate every entry (key and a check word over the data), so a torn or
// overwritten entry reads as a miss, never as a wrong count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "perftkit/position_key.hpp"

namespace perftkit {

class PerftTable {
 public:
  // A table of at most `bytes` bytes (rounded down to a power of two of 64-byte buckets,
  // at least one). Throws std::bad_alloc when the memory cannot be mapped.
  explicit PerftTable(std::size_t bytes);

  // The stored count of the subtree of `depth` plies under the keyed position, if present.
  bool probe(const PositionKey& key, int depth, std::uint64_t& count) const;

  // Asks the memory for the key's bucket ahead of a probe or store.
  void prefetch(const PositionKey& key) const { __builtin_prefetch(&buckets_[key.lo & mask_]); }

  // Stores a count; depth must be 1..255. Deeper entries are preferred in the first slot.
  void store(const PositionKey& key, int depth, std::uint64_t count);

  std::size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }

 private:
  // Four words: key.lo, key.hi ^ count ^ depth, count, depth (0 = empty).
  struct Entry {
    std::uint64_t lo, check, count, depth;
  };
  struct alignas(64) Bucket {
    Entry slot[2];  // slot 0 keeps the deeper subtree, slot 1 always takes the newest
  };

  struct Unmap {
    std::size_t bytes;
    void operator()(Bucket* p) const;
  };
  std::unique_ptr<Bucket[], Unmap> buckets_;
  std::uint64_t mask_ = 0;
};

}  // namespace perftkit
