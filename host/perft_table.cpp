#include "perft_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <new>

namespace perftkit {
namespace {

std::uint64_t load(const std::uint64_t& word) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word)).load(std::memory_order_relaxed);
}

void save(std::uint64_t& word, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
}

// Below this the whole table is one array of deep buckets (tests use tiny tables).
constexpr std::size_t MIN_SPLIT_BYTES = std::size_t(8) << 20;

}  // namespace

void PerftTable::Unmap::operator()(std::byte* p) const { munmap(p, bytes); }

PerftTable::PerftTable(std::size_t bytes) {
  const std::size_t buckets = std::max<std::size_t>(bytes / BUCKET_BYTES, 1);
  if (bytes >= MIN_SPLIT_BYTES) {
    pair_groups_ = buckets * 4 / 5 / PAIR_GROUP;
    pair_buckets_ = pair_groups_ * PAIR_GROUP;
  }
  deep_buckets_ = buckets - pair_buckets_;
  const std::size_t size = buckets * BUCKET_BYTES;
  // Fresh anonymous pages read as zero (empty entries) and are only touched when used,
  // so a large table costs nothing up front.
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, size, MADV_HUGEPAGE);
  memory_ = std::unique_ptr<std::byte[], Unmap>(static_cast<std::byte*>(memory), Unmap{size});
  pairs_ = reinterpret_cast<PairBucket*>(memory_.get());
  deep_ = reinterpret_cast<DeepBucket*>(memory_.get() + pair_buckets_ * BUCKET_BYTES);
}

// The slot a store takes: the entry's own (same key and depth) or an empty one, else the
// shallower of the two (the second on a tie), so a bucket keeps its deepest subtree.
PerftTable::DeepEntry& PerftTable::deep_slot(DeepBucket& bucket, std::uint64_t lo, std::uint64_t depth) {
  DeepEntry& first = bucket.slot[0];
  DeepEntry& second = bucket.slot[1];
  const std::uint64_t first_depth = load(first.depth), second_depth = load(second.depth);
  if (first_depth == 0 || (first_depth == depth && load(first.lo) == lo)) return first;
  if (second_depth == 0 || (second_depth == depth && load(second.lo) == lo)) return second;
  return first_depth < second_depth ? first : second;
}

bool PerftTable::probe(const PositionKey& key, int depth, std::uint64_t& count) const {
  if (depth == 2 && pair_buckets_) return probe_pair(key, count);
  const DeepBucket& bucket = deep_[deep_index(key)];
  for (const DeepEntry& e : bucket.slot) {
    if (load(e.lo) != key.lo) continue;
    const std::uint64_t c = load(e.count), d = load(e.depth), check = load(e.check);
    if (d == std::uint64_t(depth) && (check ^ c ^ d) == key.hi) {
      count = c;
      return true;
    }
  }
  return false;
}

void PerftTable::store(const PositionKey& key, int depth, std::uint64_t count) {
  if (depth == 2 && pair_buckets_) {
    // Legal chess stays under 2^16 (218^2); a count of an invented position that does not
    // is not stored (a miss later, never a wrong count).
    if (count <= IMPLIED_MASK) store_pair(key, count);
    return;
  }
  DeepBucket& bucket = deep_[deep_index(key)];
  const std::uint64_t d = std::uint64_t(depth);
  DeepEntry& e = deep_slot(bucket, key.lo, d);
  save(e.lo, key.lo);
  save(e.count, count);
  save(e.depth, d);
  save(e.check, key.hi ^ count ^ d);
}

// A two-ply entry matches when its tag holds key.lo's stored bits (the bucket implies the
// rest) and its check word gives back key.hi: words from two different entries fail the
// check, so a torn write reads as a miss.
bool PerftTable::probe_pair(const PositionKey& key, std::uint64_t& count) const {
  const PairBucket& bucket = pairs_[pair_index(key)];
  for (const PairEntry& e : bucket.slot) {
    const std::uint64_t tagged = load(e.tagged);
    if ((tagged & ~IMPLIED_MASK) != (key.lo & ~IMPLIED_MASK)) continue;
    if ((load(e.check) ^ tagged) != key.hi) continue;
    count = tagged & IMPLIED_MASK;
    return true;
  }
  return false;
}

// Takes the key's own slot or an empty one, else one of the four chosen by the key.
void PerftTable::store_pair(const PositionKey& key, std::uint64_t count) {
  PairBucket& bucket = pairs_[pair_index(key)];
  const std::uint64_t tagged = (key.lo & ~IMPLIED_MASK) | (count & IMPLIED_MASK);
  PairEntry* target = &bucket.slot[key.hi & 3];
  for (PairEntry& e : bucket.slot) {
    const std::uint64_t t = load(e.tagged);
    const bool own = (t & ~IMPLIED_MASK) == (key.lo & ~IMPLIED_MASK) && (load(e.check) ^ t) == key.hi;
    if (own || (t == 0 && load(e.check) == 0)) {
      target = &e;
      break;
    }
  }
  save(target->tagged, tagged);
  save(target->check, key.hi ^ tagged);
}

}  // namespace perftkit
