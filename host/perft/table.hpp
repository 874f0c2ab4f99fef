// A lossy, lock-free table of subtree node counts keyed by (128-bit position key, depth).
// Readers validate every entry against the whole key, and each entry carries a check over
// its words, so a torn or overwritten entry reads as a miss, never as a wrong count.
//
// Two arrays share the memory: subtrees of two plies, the bulk of any deep perft (about ten
// for every deeper one), sit six to a 64-byte bucket as a 64-bit check of the whole key and a
// 16-bit count; deeper subtrees sit four to a bucket as a check and a word of depth and count.
// Neither array needs a power of two of buckets, so a table can be sized to what a perft
// stores (hash_sizing.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "perftkit/position_key.hpp"
#include "common/uint128.hpp"

namespace perftkit {

// Asks the memory for the cache line at p. On x86-64 an explicit instruction: g++ 12 drops
// __builtin_prefetch when the address is chosen by a condition (seen in this very table,
// whose prefetches had all vanished from the binary).
PERFTKIT_FORCEINLINE void prefetch_line(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

class PerftTable {
 public:
  // A table of at most `bytes` bytes (at least one bucket): from 8 MiB up, whole 4 MiB steps
  // of at most TWO_PLY_PERCENT percent hold the two-ply subtrees and the rest the deeper ones;
  // below that one array of deep buckets holds every depth. Its pages are faulted in up front
  // on `threads` threads. Throws std::bad_alloc when the memory cannot be mapped.
  explicit PerftTable(std::size_t bytes, unsigned threads = 1);

  // The stored count of the subtree of `depth` plies under the keyed position, if present.
  bool probe(const PositionKey& key, int depth, std::uint64_t& count) const;

  // Asks the memory for the bucket a probe or store of (key, depth) will touch.
  PERFTKIT_FORCEINLINE void prefetch(const PositionKey& key, int depth) const {
    prefetch_line(depth == 2 && pair_buckets_ ? static_cast<const void*>(&pairs_[pair_index(key)])
                                              : static_cast<const void*>(&deep_[deep_index(key)]));
  }

  // Stores a count; depth must be 1..255. Two-ply counts above MAX_TWO_PLY_COUNT (not
  // reachable in legal chess: at most 218^2) and deeper ones above MAX_DEEP_COUNT are not
  // kept (a miss later, never a wrong count). A full deep bucket gives up its shallowest
  // entry.
  void store(const PositionKey& key, int depth, std::uint64_t count);

  std::size_t bytes() const { return (pair_buckets_ + deep_buckets_) * BUCKET_BYTES; }
  std::size_t two_ply_bytes() const { return pair_buckets_ * BUCKET_BYTES; }

  // The two-ply array's share of a split table, in percent: a deep perft stores about ten
  // two-ply subtrees (a sixth of a bucket each) for every deeper one (a quarter of a bucket,
  // kept at three quarters load: a third).
  static constexpr std::size_t TWO_PLY_PERCENT = 80;
  static constexpr int TWO_PLY_SLOTS = 6, DEEP_SLOTS = 4;
  // The two-ply array grows in whole groups of buckets of this many bytes.
  static constexpr std::size_t TWO_PLY_GROUP_BYTES = std::size_t(4) << 20;
  static constexpr std::uint64_t MAX_TWO_PLY_COUNT = 0xFFFE;
  static constexpr std::uint64_t MAX_DEEP_COUNT = (std::uint64_t(1) << 56) - 2;

 private:
  static constexpr std::size_t BUCKET_BYTES = 64;
  // Two-ply buckets come in groups of 2^16 (4 MiB): the group from the high bits of key.lo,
  // the place in it from the low ones.
  static constexpr int GROUP_BITS = 16;
  static constexpr std::uint64_t GROUP_MASK = (std::uint64_t(1) << GROUP_BITS) - 1;
  static constexpr std::size_t PAIR_GROUP = std::size_t(1) << GROUP_BITS;
  static_assert(PAIR_GROUP * BUCKET_BYTES == TWO_PLY_GROUP_BYTES);

  // Slot i holds check[i] = fingerprint of the key ^ stored[i] * an odd constant, and
  // stored[i] = count + 1 (0: empty). A check and a count from two different stores fail the
  // test, so a torn slot reads as a miss.
  struct alignas(BUCKET_BYTES) PairBucket {
    std::uint64_t check[TWO_PLY_SLOTS];
    std::uint16_t stored[TWO_PLY_SLOTS];
  };
  static_assert(sizeof(PairBucket) == BUCKET_BYTES);
  // Slot i holds check[i] = fingerprint of the key ^ stored[i] * the same constant, and
  // stored[i] = depth << 56 | (count + 1) (0: empty), so that the check covers the depth too.
  struct alignas(BUCKET_BYTES) DeepBucket {
    std::uint64_t check[DEEP_SLOTS];
    std::uint64_t stored[DEEP_SLOTS];
  };
  static_assert(sizeof(DeepBucket) == BUCKET_BYTES);
  PERFTKIT_FORCEINLINE std::size_t pair_index(const PositionKey& key) const {
    const auto group = static_cast<std::size_t>(u128(key.lo >> GROUP_BITS) * pair_groups_ >> 48);
    return group * PAIR_GROUP + (key.lo & GROUP_MASK);
  }
  // Bucket of a deeper key: key.lo scaled onto however many deep buckets there are (every
  // entry is checked against a fingerprint of the whole key, so no bit of it is implied).
  PERFTKIT_FORCEINLINE std::size_t deep_index(const PositionKey& key) const {
    return static_cast<std::size_t>(u128(key.lo) * deep_buckets_ >> 64);
  }
  bool probe_pair(const PositionKey& key, std::uint64_t& count) const;
  void store_pair(const PositionKey& key, std::uint64_t count);
  bool probe_deep(const PositionKey& key, int depth, std::uint64_t& count) const;
  void store_deep(const PositionKey& key, int depth, std::uint64_t count);

  struct Unmap {
    std::size_t bytes;
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte[], Unmap> memory_;
  PairBucket* pairs_ = nullptr;
  DeepBucket* deep_ = nullptr;
  std::size_t pair_buckets_ = 0, pair_groups_ = 0, deep_buckets_ = 0;
};

}  // namespace perftkit
