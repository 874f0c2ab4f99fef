#include "perft/table_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "common/parallel_for.hpp"

namespace perftkit {
namespace {

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

void TableMemory::Unmap::operator()(std::byte* p) const { munmap(p, bytes); }

TableMemory::TableMemory(std::size_t bytes, unsigned threads) {
  // Fresh anonymous pages read as zero: empty entries.
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, bytes, MADV_HUGEPAGE);
  memory_ = std::unique_ptr<std::byte[], Unmap>(static_cast<std::byte*>(memory), Unmap{bytes});
  touch_pages(memory_.get(), bytes, threads);
}

}  // namespace perftkit
