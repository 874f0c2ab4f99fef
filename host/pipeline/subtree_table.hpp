// A lossy, lock-free table of subtree node counts keyed by (128-bit position key, depth),
// as a trivially copyable view that host code and device code probe alike: the pipeline's
// transposition table. The table's memory belongs to its owner (SubtreeTable on the host,
// one device buffer per GPU in cuda/pipeline_cuda_worker.cuh). Entries are four separate 64-bit
// words and a reader verifies all of them, so a torn or racing write reads as a miss, never
// as a wrong count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "perftkit/config.hpp"
#include "perftkit/position_key.hpp"

namespace perftkit {

// key.lo, a check word over the rest (subtree_check), the count, the depth (0: empty).
struct SubtreeEntry {
  std::uint64_t lo, check, count, depth;
};

struct alignas(64) SubtreeBucket {
  SubtreeEntry slot[2];
};
static_assert(sizeof(SubtreeBucket) == 64);

// The check word of an entry: the key's other lane with the count (mixed, so that two
// entries of one key at different depths cannot trade counts) and the depth.
PERFTKIT_HD_INLINE std::uint64_t subtree_check(std::uint64_t hi, std::uint64_t count, std::uint64_t depth) {
  return hi ^ detail::mix64(count) ^ depth;
}

namespace detail {

// Relaxed 64-bit loads and stores: atomic on the host (other threads write the same words),
// volatile on the device (every access reaches memory; a 64-bit access is never split).
PERFTKIT_HD_INLINE std::uint64_t load_word(const std::uint64_t* word) {
#if PERFTKIT_DEVICE_PASS
  return *static_cast<const volatile std::uint64_t*>(word);
#else
  return __atomic_load_n(word, __ATOMIC_RELAXED);
#endif
}

PERFTKIT_HD_INLINE void store_word(std::uint64_t* word, std::uint64_t value) {
#if PERFTKIT_DEVICE_PASS
  *static_cast<volatile std::uint64_t*>(word) = value;
#else
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
#endif
}

}  // namespace detail

// Buckets in a table of at most `bytes` bytes: a power of two, at least one.
inline std::uint64_t subtree_table_buckets(std::size_t bytes) {
  std::uint64_t buckets = 1;
  while (buckets * 2 <= bytes / sizeof(SubtreeBucket)) buckets *= 2;
  return buckets;
}

struct SubtreeTableView {
  SubtreeBucket* buckets = nullptr;
  std::uint64_t mask = 0;  // bucket index mask: buckets - 1 (tests narrow it to force collisions)

  PERFTKIT_HD_INLINE explicit operator bool() const { return buckets != nullptr; }

  // The stored count of the subtree of `depth` plies below the keyed position, if an entry
  // verifies on the whole key, the depth and the check word.
  PERFTKIT_HD_INLINE bool probe(const PositionKey& key, int depth, std::uint64_t& count) const {
    const SubtreeBucket& bucket = buckets[key.lo & mask];
    for (int s = 0; s < 2; ++s) {
      const SubtreeEntry& e = bucket.slot[s];
      if (detail::load_word(&e.lo) != key.lo) continue;
      const std::uint64_t c = detail::load_word(&e.count), d = detail::load_word(&e.depth);
      const std::uint64_t check = detail::load_word(&e.check);
      if (d == std::uint64_t(depth) && check == subtree_check(key.hi, c, d)) {
        count = c;
        return true;
      }
    }
    return false;
  }

  // Stores an exact count for depth >= 1 in the entry's own slot (same key and depth) or an
  // empty one, else over the shallower of the two (the second on a tie), so a bucket keeps
  // its deepest subtree through a stream of shallow ones.
  PERFTKIT_HD_INLINE void store(const PositionKey& key, int depth, std::uint64_t count) const {
    SubtreeBucket& bucket = buckets[key.lo & mask];
    const std::uint64_t d = std::uint64_t(depth);
    SubtreeEntry& e = slot_for(bucket, key.lo, d);
    detail::store_word(&e.lo, key.lo);
    detail::store_word(&e.count, count);
    detail::store_word(&e.depth, d);
    detail::store_word(&e.check, subtree_check(key.hi, count, d));
  }

  PERFTKIT_HD_INLINE const SubtreeBucket* bucket_of(const PositionKey& key) const { return &buckets[key.lo & mask]; }

 private:
  PERFTKIT_HD_INLINE static SubtreeEntry& slot_for(SubtreeBucket& bucket, std::uint64_t lo, std::uint64_t depth) {
    SubtreeEntry& first = bucket.slot[0];
    SubtreeEntry& second = bucket.slot[1];
    const std::uint64_t first_depth = detail::load_word(&first.depth), second_depth = detail::load_word(&second.depth);
    if (first_depth == 0 || (first_depth == depth && detail::load_word(&first.lo) == lo)) return first;
    if (second_depth == 0 || (second_depth == depth && detail::load_word(&second.lo) == lo)) return second;
    return first_depth < second_depth ? first : second;
  }
};

// A table in host memory for the pipeline's OpenMP system, shared by every batch of a run
// (or, handed in through PipelineOptions, by several runs). Move-only.
class SubtreeTable {
 public:
  // At most `bytes` bytes (a power of two of 64-byte buckets, at least one), zeroed (empty).
  // Throws std::bad_alloc when the memory cannot be mapped.
  explicit SubtreeTable(std::size_t bytes);
  ~SubtreeTable();
  SubtreeTable(SubtreeTable&& other) noexcept;
  SubtreeTable& operator=(SubtreeTable&& other) noexcept;
  SubtreeTable(const SubtreeTable&) = delete;
  SubtreeTable& operator=(const SubtreeTable&) = delete;

  SubtreeTableView view() const { return {buckets_, mask_}; }
  std::size_t bytes() const { return std::size_t(mask_ + 1) * sizeof(SubtreeBucket); }

 private:
  SubtreeBucket* buckets_ = nullptr;
  std::uint64_t mask_ = 0;
};

}  // namespace perftkit
