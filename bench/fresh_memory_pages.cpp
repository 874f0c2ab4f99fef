// What faulting in a fresh anonymous mapping costs with huge pages against 4 KiB pages: the
// price PerftTable (host/perft/table.cpp) pays up front for its madvise(MADV_HUGEPAGE). Each
// thread writes a byte to every 4 KiB page of 32 MiB pieces it takes in turn, as
// touch_pages() does.
//
//   usage: fresh_memory_pages MB THREADS huge|small
// Prints one line: the mapping, the wall seconds the touching took, and the process's user
// and system seconds.
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t PIECE = std::size_t(32) << 20, PAGE = 4096;

double seconds(const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::strcmp(argv[3], "huge") && std::strcmp(argv[3], "small")) || std::atoi(argv[2]) < 1) {
    std::fprintf(stderr, "usage: %s MB THREADS huge|small\n", argv[0]);
    return 2;
  }
  const std::size_t bytes = std::size_t(std::atol(argv[1])) << 20;
  const int threads = std::atoi(argv[2]);
  const bool huge = !std::strcmp(argv[3], "huge");
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  madvise(mapping, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  auto* memory = static_cast<char*>(mapping);
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      for (std::size_t piece = next++; piece * PIECE < bytes; piece = next++)
        for (std::size_t at = piece * PIECE; at < std::min(bytes, (piece + 1) * PIECE); at += PAGE)
          *static_cast<volatile char*>(memory + at) = 0;
    });
  for (std::thread& w : workers) w.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("%zu MB, %s pages, %d threads: %.2f s wall, user %.2f s, system %.2f s\n", bytes >> 20,
              huge ? "huge" : "4 KiB", threads, wall, seconds(usage.ru_utime), seconds(usage.ru_stime));
  return 0;
}
