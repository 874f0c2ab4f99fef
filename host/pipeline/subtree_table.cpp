#include "pipeline/subtree_table.hpp"

#include <sys/mman.h>

#include <new>
#include <utility>

namespace perftkit {

SubtreeTable::SubtreeTable(std::size_t bytes) : layout_(subtree_table_layout(bytes)) {
  const std::size_t size = layout_.bytes();
  // Fresh anonymous pages read as zero (empty slots) and are only touched when used.
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, size, MADV_HUGEPAGE);
  memory_ = static_cast<SubtreeBucket*>(memory);
}

SubtreeTable::~SubtreeTable() {
  if (memory_) munmap(memory_, layout_.bytes());
}

SubtreeTable::SubtreeTable(SubtreeTable&& other) noexcept
    : memory_(std::exchange(other.memory_, nullptr)), layout_(other.layout_) {}

SubtreeTable& SubtreeTable::operator=(SubtreeTable&& other) noexcept {
  if (this != &other) {
    if (memory_) munmap(memory_, layout_.bytes());
    memory_ = std::exchange(other.memory_, nullptr);
    layout_ = other.layout_;
  }
  return *this;
}

}  // namespace perftkit
