// A lossy, lock-free table of subtree node counts keyed by (128-bit position key, depth), as
// a trivially copyable view that the CPU core's recursion, the pipeline's host code and its
// device code probe alike. The memory belongs to the view's owner: PerftTable (the CPU core),
// SubtreeTable (the pipeline on OpenMP) or one device buffer per GPU
// (cuda/pipeline_cuda_worker.cuh).
//
// Two arrays of 64-byte buckets share the memory: subtrees of two plies, the bulk of any deep
// perft (about ten for every deeper one), sit six to a bucket as a 64-bit check of the whole
// key and a 16-bit count; deeper subtrees sit four to a bucket as a check and a word of depth
// and count. Neither array needs a power of two of buckets. A reader verifies every slot
// against the key and what the slot stores, so a torn or overwritten slot reads as a miss,
// never as a wrong count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "perftkit/config.hpp"
#include "perftkit/position_key.hpp"

namespace perftkit {

namespace detail {

// Relaxed loads and stores: atomic on the host (other threads write the same words),
// volatile on the device (every access reaches memory; an aligned access is never split).
template <typename Word>
PERFTKIT_HD_INLINE Word load_word(const Word* word) {
#if PERFTKIT_DEVICE_PASS
  return *static_cast<const volatile Word*>(word);
#else
  return __atomic_load_n(word, __ATOMIC_RELAXED);
#endif
}

template <typename Word>
PERFTKIT_HD_INLINE void store_word(Word* word, Word value) {
#if PERFTKIT_DEVICE_PASS
  *static_cast<volatile Word*>(word) = value;
#else
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
#endif
}

// The high 64 bits of a * b.
PERFTKIT_HD_INLINE std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return __umul64hi(a, b);
#else
  __extension__ const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(product >> 64);
#endif
}

}  // namespace detail

// Asks the memory for the cache line at p (host code). On x86-64 an explicit instruction:
// g++ 12 drops __builtin_prefetch when the address is chosen by a condition (seen in this
// very table, whose prefetches had all vanished from the binary).
PERFTKIT_FORCEINLINE void prefetch_line(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// The table's memory, in the unit both arrays are made of.
struct alignas(64) SubtreeBucket {
  std::uint64_t word[8];
};

// Two-ply slot i: check[i] = the key's fingerprint ^ stored[i] * an odd constant, stored[i] =
// count + 1 (0: empty). A check and a count from two different stores fail the test.
struct alignas(64) TwoPlyBucket {
  std::uint64_t check[6];
  std::uint16_t stored[6];
};
// Deep slot i: the same check over stored[i] = depth << 56 | (count + 1), so that the check
// covers the depth too.
struct alignas(64) DeepBucket {
  std::uint64_t check[4];
  std::uint64_t stored[4];
};
static_assert(sizeof(SubtreeBucket) == 64 && sizeof(TwoPlyBucket) == 64 && sizeof(DeepBucket) == 64);

// How a table's buckets split into the two arrays.
struct SubtreeTableLayout {
  // From 8 MiB up, whole groups of 2^16 buckets (4 MiB) of at most TWO_PLY_PERCENT percent
  // hold the two-ply subtrees and the rest the deeper ones; below, deep buckets hold every
  // depth. The share: a deep perft stores about ten two-ply subtrees (a sixth of a bucket
  // each) for every deeper one (a quarter of a bucket, kept at three quarters load: a third).
  static constexpr std::size_t TWO_PLY_PERCENT = 80;
  static constexpr int TWO_PLY_SLOTS = 6, DEEP_SLOTS = 4;
  static constexpr int GROUP_BITS = 16;
  static constexpr std::uint64_t GROUP_BUCKETS = std::uint64_t(1) << GROUP_BITS;
  static constexpr std::size_t GROUP_BYTES = GROUP_BUCKETS * sizeof(SubtreeBucket);
  static constexpr std::size_t MIN_SPLIT_BYTES = std::size_t(8) << 20;
  // Counts above these are not kept (a miss later, never a wrong count): the two-ply one is
  // not reachable in legal chess (at most 218^2).
  static constexpr std::uint64_t MAX_TWO_PLY_COUNT = 0xFFFE;
  static constexpr std::uint64_t MAX_DEEP_COUNT = (std::uint64_t(1) << 56) - 2;

  std::uint64_t two_ply_groups = 0;
  std::uint64_t deep_buckets = 1;

  PERFTKIT_HD_INLINE std::uint64_t two_ply_buckets() const { return two_ply_groups * GROUP_BUCKETS; }
  PERFTKIT_HD_INLINE std::uint64_t buckets() const { return two_ply_buckets() + deep_buckets; }
  std::size_t bytes() const { return std::size_t(buckets()) * sizeof(SubtreeBucket); }
};

// The layout of a table of at most `bytes` bytes (at least one bucket).
inline SubtreeTableLayout subtree_table_layout(std::size_t bytes) {
  const std::uint64_t buckets = bytes / sizeof(SubtreeBucket) ? bytes / sizeof(SubtreeBucket) : 1;
  SubtreeTableLayout layout;
  if (bytes >= SubtreeTableLayout::MIN_SPLIT_BYTES)
    layout.two_ply_groups = buckets / 100 * SubtreeTableLayout::TWO_PLY_PERCENT / SubtreeTableLayout::GROUP_BUCKETS;
  layout.deep_buckets = buckets - layout.two_ply_buckets();
  return layout;
}

struct SubtreeTableView {
  SubtreeBucket* memory = nullptr;  // two_ply_buckets() two-ply buckets, then the deep ones
  SubtreeTableLayout layout;
  std::uint64_t index_mask = ~std::uint64_t(0);  // tests: 0 sends every key to an array's first bucket

  PERFTKIT_HD_INLINE explicit operator bool() const { return memory != nullptr; }

  // The stored count of the subtree of `depth` plies below the keyed position, if a slot
  // verifies against the whole key and the depth.
  PERFTKIT_HD_INLINE bool probe(const PositionKey& key, int depth, std::uint64_t& count) const {
    const std::uint64_t wanted = fingerprint(key);
    if (depth == 2 && layout.two_ply_groups) {
      const TwoPlyBucket& bucket = two_ply_bucket(two_ply_index(key));
      for (int i = 0; i < SubtreeTableLayout::TWO_PLY_SLOTS; ++i) {
        const std::uint16_t stored = detail::load_word(&bucket.stored[i]);
        if (stored && detail::load_word(&bucket.check[i]) == slot_check(wanted, stored)) {
          count = stored - 1u;
          return true;
        }
      }
      return false;
    }
    const DeepBucket& bucket = deep_bucket(deep_index(key));
    for (int i = 0; i < SubtreeTableLayout::DEEP_SLOTS; ++i) {
      const std::uint64_t stored = detail::load_word(&bucket.stored[i]);
      if (deep_slot_holds(stored, bucket.check[i], depth, wanted)) {
        count = (stored & STORED_COUNT_MASK) - 1;
        return true;
      }
    }
    return false;
  }

  // Stores a count; depth must be 1..255.
  PERFTKIT_HD_INLINE void store(const PositionKey& key, int depth, std::uint64_t count) const {
    if (depth == 2 && layout.two_ply_groups) {
      if (count <= SubtreeTableLayout::MAX_TWO_PLY_COUNT) store_two_ply(key, count);
    } else if (count <= SubtreeTableLayout::MAX_DEEP_COUNT) {
      store_deep(key, depth, count);
    }
  }

  // The bucket a probe or store of (key, depth) touches (to prefetch it).
  PERFTKIT_HD_INLINE const void* bucket_of(const PositionKey& key, int depth) const {
    return depth == 2 && layout.two_ply_groups ? static_cast<const void*>(&two_ply_bucket(two_ply_index(key)))
                                               : static_cast<const void*>(&deep_bucket(deep_index(key)));
  }

  PERFTKIT_HD_INLINE TwoPlyBucket& two_ply_bucket(std::uint64_t i) const {
    return reinterpret_cast<TwoPlyBucket*>(memory)[i];
  }
  PERFTKIT_HD_INLINE DeepBucket& deep_bucket(std::uint64_t i) const {
    return reinterpret_cast<DeepBucket*>(memory + layout.two_ply_buckets())[i];
  }

 private:
  static constexpr int DEPTH_SHIFT = 56;
  static constexpr std::uint64_t STORED_COUNT_MASK = SubtreeTableLayout::MAX_DEEP_COUNT + 1;
  static_assert(STORED_COUNT_MASK == (std::uint64_t(1) << DEPTH_SHIFT) - 1);

  // 64 bits of the whole 128-bit key (a bijection of key.lo mixed into key.hi): two keys of
  // one bucket share it by chance only, once in 2^64.
  PERFTKIT_HD_INLINE static std::uint64_t fingerprint(const PositionKey& key) { return key.hi ^ detail::mix64(key.lo); }
  // The check word of a slot that stores `stored` for a key of this fingerprint.
  PERFTKIT_HD_INLINE static std::uint64_t slot_check(std::uint64_t fingerprint, std::uint64_t stored) {
    return fingerprint ^ stored * 0x9E3779B97F4A7C15ULL;
  }
  PERFTKIT_HD_INLINE static int stored_depth(std::uint64_t stored) { return int(stored >> DEPTH_SHIFT); }
  // Whether a deep slot's word `stored` and check word `check` hold the subtree of `depth`
  // plies under a key of this fingerprint.
  PERFTKIT_HD_INLINE static bool deep_slot_holds(std::uint64_t stored, const std::uint64_t& check, int depth,
                                                 std::uint64_t fingerprint) {
    return stored && stored_depth(stored) == depth && detail::load_word(&check) == slot_check(fingerprint, stored);
  }

  // Two-ply bucket of a key: its group from the high bits of key.lo, its place in the group
  // from the low ones.
  PERFTKIT_HD_INLINE std::uint64_t two_ply_index(const PositionKey& key) const {
    constexpr std::uint64_t low = SubtreeTableLayout::GROUP_BUCKETS - 1;
    const std::uint64_t group = detail::mul_high(key.lo & ~low, layout.two_ply_groups);
    return (group * SubtreeTableLayout::GROUP_BUCKETS + (key.lo & low)) & index_mask;
  }
  // Deep bucket of a key: key.lo scaled onto however many deep buckets there are (every slot
  // is checked against a fingerprint of the whole key, so no bit of it is implied).
  PERFTKIT_HD_INLINE std::uint64_t deep_index(const PositionKey& key) const {
    return detail::mul_high(key.lo, layout.deep_buckets) & index_mask;
  }

  // Takes the key's own slot or an empty one, else one of the six chosen by the key.
  PERFTKIT_HD_INLINE void store_two_ply(const PositionKey& key, std::uint64_t count) const {
    TwoPlyBucket& bucket = two_ply_bucket(two_ply_index(key));
    const std::uint64_t print = fingerprint(key);
    int target = int((key.hi >> 32) * SubtreeTableLayout::TWO_PLY_SLOTS >> 32);
    for (int i = 0; i < SubtreeTableLayout::TWO_PLY_SLOTS; ++i) {
      const std::uint16_t stored = detail::load_word(&bucket.stored[i]);
      if (!stored || detail::load_word(&bucket.check[i]) == slot_check(print, stored)) {
        target = i;
        break;
      }
    }
    const auto stored = std::uint16_t(count + 1);
    detail::store_word(&bucket.stored[target], stored);
    detail::store_word(&bucket.check[target], slot_check(print, stored));
  }

  // Takes the slot of the same key and depth or an empty one, else the shallowest, so that a
  // bucket keeps its deep subtrees through a stream of shallow ones; among equally shallow
  // ones, the first from a slot chosen by the key, so that they all take turns.
  PERFTKIT_HD_INLINE void store_deep(const PositionKey& key, int depth, std::uint64_t count) const {
    DeepBucket& bucket = deep_bucket(deep_index(key));
    const std::uint64_t print = fingerprint(key);
    const int first = int((key.hi >> 32) * SubtreeTableLayout::DEEP_SLOTS >> 32);
    int target = first, target_depth = 256;  // deeper than any stored depth
    for (int k = 0; k < SubtreeTableLayout::DEEP_SLOTS; ++k) {
      const int i = (first + k) % SubtreeTableLayout::DEEP_SLOTS;
      const std::uint64_t stored = detail::load_word(&bucket.stored[i]);
      if (!stored || deep_slot_holds(stored, bucket.check[i], depth, print)) {
        target = i;
        break;
      }
      if (stored_depth(stored) < target_depth) target = i, target_depth = stored_depth(stored);
    }
    const std::uint64_t stored = std::uint64_t(depth) << DEPTH_SHIFT | (count + 1);
    detail::store_word(&bucket.stored[target], stored);
    detail::store_word(&bucket.check[target], slot_check(print, stored));
  }
};

// A table in host memory for the pipeline's OpenMP system, shared by every batch of a run
// (or, handed in through PipelineOptions, by several runs). Move-only.
class SubtreeTable {
 public:
  // At most `bytes` bytes (at least one bucket), zeroed (empty); its pages are touched when
  // used. Throws std::bad_alloc when the memory cannot be mapped.
  explicit SubtreeTable(std::size_t bytes);
  ~SubtreeTable();
  SubtreeTable(SubtreeTable&& other) noexcept;
  SubtreeTable& operator=(SubtreeTable&& other) noexcept;
  SubtreeTable(const SubtreeTable&) = delete;
  SubtreeTable& operator=(const SubtreeTable&) = delete;

  SubtreeTableView view() const { return {memory_, layout_}; }
  std::size_t bytes() const { return memory_ ? layout_.bytes() : 0; }

 private:
  SubtreeBucket* memory_ = nullptr;
  SubtreeTableLayout layout_;
};

}  // namespace perftkit
