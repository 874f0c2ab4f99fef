#include "perft_table.hpp"

#include <sys/mman.h>

#include <atomic>
#include <bit>
#include <new>

namespace perftkit {
namespace {

std::uint64_t load(const std::uint64_t& word) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word)).load(std::memory_order_relaxed);
}

void save(std::uint64_t& word, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
}

}  // namespace

void PerftTable::Unmap::operator()(Bucket* p) const { munmap(p, bytes); }

PerftTable::PerftTable(std::size_t bytes) {
  const std::size_t buckets = std::bit_floor(std::max<std::size_t>(bytes / sizeof(Bucket), 1));
  const std::size_t size = buckets * sizeof(Bucket);
  // Fresh anonymous pages read as zero (empty entries) and are only touched when used,
  // so a large table costs nothing up front.
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, size, MADV_HUGEPAGE);
  buckets_ = std::unique_ptr<Bucket[], Unmap>(static_cast<Bucket*>(memory), Unmap{size});
  mask_ = buckets - 1;
}

bool PerftTable::probe(const PositionKey& key, int depth, std::uint64_t& count) const {
  const Bucket& bucket = buckets_[key.lo & mask_];
  for (const Entry& e : bucket.slot) {
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
  Bucket& bucket = buckets_[key.lo & mask_];
  const std::uint64_t d = std::uint64_t(depth);
  Entry& e = load(bucket.slot[0].depth) <= d ? bucket.slot[0] : bucket.slot[1];
  save(e.lo, key.lo);
  save(e.count, count);
  save(e.depth, d);
  save(e.check, key.hi ^ count ^ d);
}

}  // namespace perftkit
