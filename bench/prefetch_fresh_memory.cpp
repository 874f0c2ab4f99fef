// Cost of a random access, prefetched in batches, into a fresh anonymous mapping against one
// whose pages were all written first: why PerftTable faults its pages in up front
// (host/perft/table.cpp). Each access is a prefetch, then later a read and a write of the same
// cache line, in batches of 30 (a node's children), as the hashed perft probes and stores.
// With span `page`, the 30 lines of a batch lie in one random 4 KiB page (one address
// translation per batch instead of 30): if that costs as much as `any`, the batch waits on
// the memory's parallelism, not on page walks.
//
//   usage: prefetch_fresh_memory MB touched(0|1) prefetch(0|1) [any|page]
// Prints one line: the mapping, the seconds the touching took, and nanoseconds per access.
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr long ACCESSES = 20'000'000;
constexpr int BATCH = 30;
constexpr std::size_t LINE = 64, PAGE = 4096;

// xorshift64: random line indices, the same sequence in every run.
std::uint64_t next_random(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 5 && (!std::strcmp(argv[4], "any") || !std::strcmp(argv[4], "page")))) {
    std::fprintf(stderr, "usage: %s MB touched(0|1) prefetch(0|1) [any|page]\n", argv[0]);
    return 2;
  }
  const std::size_t bytes = std::size_t(std::atol(argv[1])) << 20;
  const bool touched = std::atoi(argv[2]) != 0, prefetch = std::atoi(argv[3]) != 0;
  const bool one_page = argc == 5 && !std::strcmp(argv[4], "page");
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  auto* memory = static_cast<volatile unsigned char*>(mapping);
  madvise(mapping, bytes, MADV_HUGEPAGE);

  const auto touch_start = std::chrono::steady_clock::now();
  if (touched)
    for (std::size_t at = 0; at < bytes; at += PAGE) memory[at] = 0;
  const double touch_seconds = seconds_since(touch_start);

  const std::size_t lines = bytes / LINE;
  std::uint64_t state = 88172645463325252ULL, sum = 0;
  std::size_t offsets[BATCH];
  const auto start = std::chrono::steady_clock::now();
  for (long done = 0; done < ACCESSES; done += BATCH) {
    const std::size_t page = one_page ? next_random(state) % (bytes / PAGE) * PAGE : 0;
    for (int i = 0; i < BATCH; ++i) {
      offsets[i] = one_page ? page + next_random(state) % (PAGE / LINE) * LINE : next_random(state) % lines * LINE;
      if (prefetch) __builtin_prefetch(const_cast<unsigned char*>(memory + offsets[i]));
    }
    for (int i = 0; i < BATCH; ++i) {
      sum += memory[offsets[i]];
      memory[offsets[i]] = 1;
    }
  }
  std::printf("%zu MB %s, %s%s: touch %.2f s, %.1f ns per access (checksum %llu)\n", bytes >> 20,
              touched ? "touched first" : "fresh", prefetch ? "prefetched" : "not prefetched",
              one_page ? ", a batch in one page" : "", touch_seconds, seconds_since(start) * 1e9 / double(ACCESSES),
              static_cast<unsigned long long>(sum));
  return 0;
}
