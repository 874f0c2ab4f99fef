// Copies of small trivially copyable items (texts, lists of views) that must outlive their
// source until clear(): kept in chunks that never move, so a pointer into one stays valid,
// and reused after clear(), so that holding an item costs a copy and no allocation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace perftkit {

template <typename T>
class ChunkArena {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  // chunk_bytes: the size of a chunk (at least one item), 64 KiB unless told.
  explicit ChunkArena(std::size_t chunk_bytes = std::size_t(1) << 16)
      : chunk_items_(std::max<std::size_t>(1, chunk_bytes / sizeof(T))) {}

  // A copy of items[0, n), contiguous; valid until clear(). n may exceed a chunk.
  T* copy(const T* items, std::size_t n) {
    if (chunks_.empty() || used_ + n > chunks_[current_].size) next_chunk(n);
    T* const at = chunks_[current_].items.get() + used_;
    if (n) std::memcpy(at, items, n * sizeof(T));
    used_ += n;
    return at;
  }

  // Forgets every copy; the chunks stay for the next ones.
  void clear() {
    current_ = 0;
    used_ = 0;
  }

 private:
  struct Chunk {
    std::unique_ptr<T[]> items;
    std::size_t size;
  };

  // Moves on to a chunk with room for n items: the next one if it is large enough, else a
  // new one put in its place (the chunks after it wait for later copies).
  void next_chunk(std::size_t n) {
    const std::size_t next = chunks_.empty() ? 0 : current_ + 1;
    if (next == chunks_.size() || chunks_[next].size < n) {
      const std::size_t size = std::max(chunk_items_, n);
      chunks_.insert(chunks_.begin() + std::ptrdiff_t(next), Chunk{std::make_unique_for_overwrite<T[]>(size), size});
    }
    current_ = next;
    used_ = 0;
  }

  std::size_t chunk_items_;
  std::vector<Chunk> chunks_;
  std::size_t current_ = 0;  // the chunk copies go to
  std::size_t used_ = 0;     // items of it taken
};

}  // namespace perftkit
