#include "pipeline/subtree_table.hpp"

#include <sys/mman.h>

#include <new>
#include <utility>

namespace perftkit {

SubtreeTable::SubtreeTable(std::size_t bytes) {
  const std::uint64_t buckets = subtree_table_buckets(bytes);
  const std::size_t size = std::size_t(buckets) * sizeof(SubtreeBucket);
  // Fresh anonymous pages read as zero (empty entries) and are only touched when used.
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, size, MADV_HUGEPAGE);
  buckets_ = static_cast<SubtreeBucket*>(memory);
  mask_ = buckets - 1;
}

SubtreeTable::~SubtreeTable() {
  if (buckets_) munmap(buckets_, bytes());
}

SubtreeTable::SubtreeTable(SubtreeTable&& other) noexcept
    : buckets_(std::exchange(other.buckets_, nullptr)), mask_(std::exchange(other.mask_, 0)) {}

SubtreeTable& SubtreeTable::operator=(SubtreeTable&& other) noexcept {
  if (this != &other) {
    if (buckets_) munmap(buckets_, bytes());
    buckets_ = std::exchange(other.buckets_, nullptr);
    mask_ = std::exchange(other.mask_, 0);
  }
  return *this;
}

}  // namespace perftkit
