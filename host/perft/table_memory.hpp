// The memory of a CPU-side table (PerftTable, StatsTable): anonymous pages, zeroed (every
// entry empty), on huge pages where the kernel grants them, and faulted in up front.
#pragma once

#include <cstddef>
#include <memory>

namespace perftkit {

class TableMemory {
 public:
  // `bytes` bytes, their pages touched on `threads` threads. Throws std::bad_alloc when the
  // memory cannot be mapped.
  TableMemory(std::size_t bytes, unsigned threads);

  std::byte* data() const { return memory_.get(); }
  std::size_t bytes() const { return memory_.get_deleter().bytes; }

 private:
  struct Unmap {
    std::size_t bytes;
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte[], Unmap> memory_;
};

}  // namespace perftkit
