// A stack of buffers carved from one block of memory (host or device: the arena only does
// pointer arithmetic). Levels of the pipeline push their buffers and pop them when done, so
// a level's memory is known before it is used and nothing is allocated per chunk; on the GPU
// Thrust's temporaries come from the top of the same stack (ArenaAllocator).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace perftkit::pipeline {

// A level needs more than its worker's block holds: the work unit is retried with smaller
// pieces or handed to the CPU, never counted in part.
struct OutOfWorkspace : std::bad_alloc {
  const char* what() const noexcept override { return "pipeline: level buffers exceed the memory budget"; }
};

class Arena {
 public:
  static constexpr std::size_t ALIGNMENT = 256;

  Arena(void* base, std::size_t bytes) : base_(static_cast<std::byte*>(base)), capacity_(bytes) {}

  // count elements of T, uninitialised; throws OutOfWorkspace when they do not fit.
  template <typename T>
  T* push(std::uint64_t count) {
    const std::size_t start = align_up(top_);
    if (count > (capacity_ - std::min(start, capacity_)) / sizeof(T)) throw OutOfWorkspace{};
    top_ = start + static_cast<std::size_t>(count) * sizeof(T);
    return reinterpret_cast<T*>(base_ + start);
  }

  // Bytes still free after alignment.
  std::size_t available() const {
    const std::size_t start = align_up(top_);
    return start < capacity_ ? capacity_ - start : 0;
  }
  std::size_t capacity() const { return capacity_; }

  std::size_t mark() const { return top_; }
  void release(std::size_t mark) { top_ = mark; }

  // A temporary on top of the stack (single-threaded use: one host thread per arena).
  // Freed in any order; the stack shrinks once everything above a temporary is freed too.
  std::byte* push_temporary(std::size_t bytes) {
    const std::size_t before = top_;
    std::byte* p = push<std::byte>(bytes);
    temporaries_.push_back({p, before, false});
    return p;
  }
  void pop_temporary(const std::byte* p) noexcept {
    for (Temporary& t : temporaries_)
      if (t.data == p) t.freed = true;
    while (!temporaries_.empty() && temporaries_.back().freed) {
      top_ = temporaries_.back().mark;
      temporaries_.pop_back();
    }
  }

 private:
  struct Temporary {
    const std::byte* data;
    std::size_t mark;
    bool freed;
  };

  static std::size_t align_up(std::size_t n) { return (n + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT; }

  std::byte* base_;
  std::size_t capacity_;
  std::size_t top_ = 0;
  std::vector<Temporary> temporaries_;
};

// Thrust's temporary-storage allocator over an arena (thrust::cuda::par(allocator)): the
// sort and scan scratch of a step lives in the worker's block, so a step never calls
// cudaMalloc/cudaFree, and running out is an OutOfWorkspace like any other.
class ArenaAllocator {
 public:
  using value_type = char;
  explicit ArenaAllocator(Arena& arena) : arena_(&arena) {}
  char* allocate(std::ptrdiff_t bytes) {
    return reinterpret_cast<char*>(arena_->push_temporary(static_cast<std::size_t>(bytes)));
  }
  void deallocate(char* p, std::size_t) noexcept { arena_->pop_temporary(reinterpret_cast<const std::byte*>(p)); }

 private:
  Arena* arena_;
};

// Pops everything pushed after its construction when it goes out of scope.
class ArenaScope {
 public:
  explicit ArenaScope(Arena& arena) : arena_(arena), mark_(arena.mark()) {}
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;
  ~ArenaScope() { arena_.release(mark_); }

 private:
  Arena& arena_;
  std::size_t mark_;
};

}  // namespace perftkit::pipeline
