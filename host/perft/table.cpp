#include "perft/table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "common/parallel_for.hpp"

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
    pair_groups_ = buckets / 10 * TWO_PLY_TENTHS / PAIR_GROUP;
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
  deep_ = reinterpret_cast<SubtreeBucket*>(memory_.get() + pair_buckets_ * BUCKET_BYTES);
}

bool PerftTable::probe(const PositionKey& key, int depth, std::uint64_t& count) const {
  if (depth == 2 && pair_buckets_) return probe_pair(key, count);
  return deep_bucket(key).probe(key, depth, count);
}

void PerftTable::store(const PositionKey& key, int depth, std::uint64_t count) {
  if (depth == 2 && pair_buckets_) {
    // Legal chess stays under 2^16 (218^2); a count of an invented position that does not
    // is not stored (a miss later, never a wrong count).
    if (count <= IMPLIED_MASK) store_pair(key, count);
    return;
  }
  deep_bucket(key).store(key, depth, count);
}

// A two-ply entry matches when its tag holds key.lo's stored bits (the bucket implies the
// rest) and its check word gives back key.hi: words from two different entries fail the
// check, so a torn write reads as a miss.
bool PerftTable::probe_pair(const PositionKey& key, std::uint64_t& count) const {
  const PairBucket& bucket = pairs_[pair_index(key)];
  for (const PairEntry& e : bucket.slot) {
    const std::uint64_t tagged = detail::load_word(&e.tagged);
    if ((tagged & ~IMPLIED_MASK) != (key.lo & ~IMPLIED_MASK)) continue;
    if ((detail::load_word(&e.check) ^ tagged) != key.hi) continue;
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
    const std::uint64_t t = detail::load_word(&e.tagged);
    const bool own = (t & ~IMPLIED_MASK) == (key.lo & ~IMPLIED_MASK) && (detail::load_word(&e.check) ^ t) == key.hi;
    if (own || (t == 0 && detail::load_word(&e.check) == 0)) {
      target = &e;
      break;
    }
  }
  detail::store_word(&target->tagged, tagged);
  detail::store_word(&target->check, key.hi ^ tagged);
}

}  // namespace perftkit
