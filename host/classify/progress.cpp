#include "classify/progress.hpp"

#include <cstdio>

namespace perftkit {

ProgressMeter::ProgressMeter(std::uint64_t total_bytes, bool terminal)
    : total_bytes_(total_bytes), terminal_(terminal) {}

void ProgressMeter::update(std::uint64_t rows, std::uint64_t bytes) {
  const auto interval = terminal_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(5000);
  if (Clock::now() - last_shown_ >= interval) show(rows, bytes, false);
}

void ProgressMeter::finish(std::uint64_t rows, std::uint64_t bytes) { show(rows, bytes, true); }

void ProgressMeter::show(std::uint64_t rows, std::uint64_t bytes, bool last) {
  const Clock::time_point now = Clock::now();
  last_shown_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? double(rows) / seconds : 0.0;
  char share[64] = "";
  if (total_bytes_ > 0 && !last) {
    const double done = double(bytes) / double(total_bytes_);
    const double eta = done > 0 ? seconds * (1 - done) / done : 0.0;
    std::snprintf(share, sizeof share, ", %5.1f%%, ETA %d:%02d", 100 * done, int(eta) / 60, int(eta) % 60);
  }
  const double megabytes = double(bytes) / 1e6;
  std::fprintf(stderr, "%sclassify: %llu rows, %.3g rows/s, %.1f MB read (%.1f MB/s)%s%s", terminal_ ? "\r" : "",
               static_cast<unsigned long long>(rows), rate, megabytes, seconds > 0 ? megabytes / seconds : 0.0, share,
               terminal_ && !last ? "   " : "\n");
  std::fflush(stderr);
}

}  // namespace perftkit
