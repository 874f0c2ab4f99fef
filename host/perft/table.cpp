#include "perft/table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "common/parallel_for.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit {
namespace {

// Below this the whole table is one array of deep buckets (tests use tiny tables).
constexpr std::size_t MIN_SPLIT_BYTES = std::size_t(8) << 20;

// Pages are touched in pieces of this size, handed out to the threads one at a time.
constexpr std::size_t TOUCH_PIECE_BYTES = std::size_t(32) << 20;
constexpr std::size_t PAGE_BYTES = 4096;

// Writes a zero to every page of the fresh mapping [memory, memory + size), on `threads`
// threads, so that each page is faulted in (and zeroed by the kernel) once, up front, in
// parallel. Untouched pages would also read as empty, but the search prefetches into them at
// random, and on a KVM guest a prefetch into a page not yet touched stalls many times longer
// than one into a touched page.
void touch_pages(std::byte* memory, std::size_t size, unsigned threads) {
  const std::size_t pieces = (size + TOUCH_PIECE_BYTES - 1) / TOUCH_PIECE_BYTES;
  parallel_for(pieces, threads, [&](unsigned, std::size_t piece) {
    const std::size_t end = std::min(size, (piece + 1) * TOUCH_PIECE_BYTES);
    for (std::size_t at = piece * TOUCH_PIECE_BYTES; at < end; at += PAGE_BYTES)
      *static_cast<volatile std::byte*>(memory + at) = std::byte{0};
  });
}

}  // namespace

void PerftTable::Unmap::operator()(std::byte* p) const { munmap(p, bytes); }

PerftTable::PerftTable(std::size_t bytes, unsigned threads) {
  const std::size_t buckets = std::max<std::size_t>(bytes / BUCKET_BYTES, 1);
  if (bytes >= MIN_SPLIT_BYTES) {
    pair_groups_ = buckets / 100 * TWO_PLY_PERCENT / PAIR_GROUP;
    pair_buckets_ = pair_groups_ * PAIR_GROUP;
  }
  deep_buckets_ = buckets - pair_buckets_;
  const std::size_t size = buckets * BUCKET_BYTES;
  // Fresh anonymous pages read as zero: empty entries.
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, size, MADV_HUGEPAGE);
  memory_ = std::unique_ptr<std::byte[], Unmap>(static_cast<std::byte*>(memory), Unmap{size});
  touch_pages(memory_.get(), size, threads);
  pairs_ = reinterpret_cast<PairBucket*>(memory_.get());
  deep_ = reinterpret_cast<DeepBucket*>(memory_.get() + pair_buckets_ * BUCKET_BYTES);
}

bool PerftTable::probe(const PositionKey& key, int depth, std::uint64_t& count) const {
  if (depth == 2 && pair_buckets_) return probe_pair(key, count);
  return probe_deep(key, depth, count);
}

void PerftTable::store(const PositionKey& key, int depth, std::uint64_t count) {
  if (depth == 2 && pair_buckets_) {
    // Legal chess stays under MAX_TWO_PLY_COUNT (218^2); a count of an invented position that
    // does not is not stored (a miss later, never a wrong count).
    if (count <= MAX_TWO_PLY_COUNT) store_pair(key, count);
    return;
  }
  if (count <= MAX_DEEP_COUNT) store_deep(key, depth, count);
}

namespace {

// 64 bits of the whole 128-bit key (a bijection of key.lo mixed into key.hi): two keys of
// one bucket share it by chance only, once in 2^64.
std::uint64_t fingerprint(const PositionKey& key) { return key.hi ^ detail::mix64(key.lo); }

// The check word of a slot that stores `stored` (count + 1, and a deep slot's depth) for a key
// of this fingerprint.
std::uint64_t slot_check(std::uint64_t fingerprint, std::uint64_t stored) {
  return fingerprint ^ stored * 0x9E3779B97F4A7C15ULL;
}

std::uint16_t load_half(const std::uint16_t* half) { return __atomic_load_n(half, __ATOMIC_RELAXED); }

// A deep slot's word: the depth (1..255) in the top byte, count + 1 below.
constexpr int DEPTH_SHIFT = 56;
constexpr std::uint64_t STORED_COUNT_MASK = PerftTable::MAX_DEEP_COUNT + 1;
static_assert(STORED_COUNT_MASK == (std::uint64_t(1) << DEPTH_SHIFT) - 1);
std::uint64_t deep_stored(int depth, std::uint64_t count) { return std::uint64_t(depth) << DEPTH_SHIFT | (count + 1); }
int stored_depth(std::uint64_t stored) { return int(stored >> DEPTH_SHIFT); }

// Whether a deep slot's word `stored` and check word `check` hold the subtree of `depth`
// plies under a key of this fingerprint.
bool deep_slot_holds(std::uint64_t stored, const std::uint64_t& check, int depth, std::uint64_t fingerprint) {
  return stored && stored_depth(stored) == depth && detail::load_word(&check) == slot_check(fingerprint, stored);
}

}  // namespace

// A two-ply slot matches when its count is set and its check gives back the key's fingerprint.
bool PerftTable::probe_pair(const PositionKey& key, std::uint64_t& count) const {
  const PairBucket& bucket = pairs_[pair_index(key)];
  const std::uint64_t wanted = fingerprint(key);
  for (int i = 0; i < TWO_PLY_SLOTS; ++i) {
    const std::uint16_t stored = load_half(&bucket.stored[i]);
    if (stored && detail::load_word(&bucket.check[i]) == slot_check(wanted, stored)) {
      count = stored - 1u;
      return true;
    }
  }
  return false;
}

// Takes the key's own slot or an empty one, else one of the six chosen by the key.
void PerftTable::store_pair(const PositionKey& key, std::uint64_t count) {
  PairBucket& bucket = pairs_[pair_index(key)];
  const std::uint64_t print = fingerprint(key);
  int target = int((key.hi >> 32) * TWO_PLY_SLOTS >> 32);
  for (int i = 0; i < TWO_PLY_SLOTS; ++i) {
    const std::uint16_t stored = load_half(&bucket.stored[i]);
    if (!stored || detail::load_word(&bucket.check[i]) == slot_check(print, stored)) {
      target = i;
      break;
    }
  }
  const auto stored = std::uint16_t(count + 1);
  __atomic_store_n(&bucket.stored[target], stored, __ATOMIC_RELAXED);
  detail::store_word(&bucket.check[target], slot_check(print, stored));
}

// A deep slot matches when it holds the depth and its check gives back the key's fingerprint.
bool PerftTable::probe_deep(const PositionKey& key, int depth, std::uint64_t& count) const {
  const DeepBucket& bucket = deep_[deep_index(key)];
  const std::uint64_t wanted = fingerprint(key);
  for (int i = 0; i < DEEP_SLOTS; ++i) {
    const std::uint64_t stored = detail::load_word(&bucket.stored[i]);
    if (deep_slot_holds(stored, bucket.check[i], depth, wanted)) {
      count = (stored & STORED_COUNT_MASK) - 1;
      return true;
    }
  }
  return false;
}

// Takes the slot of the same key and depth or an empty one, else the shallowest, so that a
// bucket keeps its deep subtrees through a stream of shallow ones; among equally shallow
// ones, the first from a slot chosen by the key, so that they all take turns.
void PerftTable::store_deep(const PositionKey& key, int depth, std::uint64_t count) {
  DeepBucket& bucket = deep_[deep_index(key)];
  const std::uint64_t print = fingerprint(key);
  const int first = int((key.hi >> 32) * DEEP_SLOTS >> 32);
  int target = first, target_depth = 256;  // deeper than any stored depth
  for (int k = 0; k < DEEP_SLOTS; ++k) {
    const int i = (first + k) % DEEP_SLOTS;
    const std::uint64_t stored = detail::load_word(&bucket.stored[i]);
    if (!stored || deep_slot_holds(stored, bucket.check[i], depth, print)) {
      target = i;
      break;
    }
    if (stored_depth(stored) < target_depth) target = i, target_depth = stored_depth(stored);
  }
  const std::uint64_t stored = deep_stored(depth, count);
  detail::store_word(&bucket.stored[target], stored);
  detail::store_word(&bucket.check[target], slot_check(print, stored));
}

}  // namespace perftkit
