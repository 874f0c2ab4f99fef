#include "classify/progress.hpp"

#include <cstdio>
#include <iostream>

namespace perftkit {

ProgressMeter::ProgressMeter(std::uint64_t total_bytes, bool terminal)
    : total_bytes_(total_bytes), line_(std::cerr, terminal) {}

void ProgressMeter::update(std::uint64_t rows, std::uint64_t bytes) {
  if (line_.due()) line_.update(text(rows, bytes, false));
}

void ProgressMeter::finish(std::uint64_t rows, std::uint64_t bytes) { line_.finish(text(rows, bytes, true)); }

std::string ProgressMeter::text(std::uint64_t rows, std::uint64_t bytes, bool last) const {
  const double seconds = line_.elapsed_seconds();
  const double megabytes = double(bytes) / 1e6;
  char counts[160];
  std::snprintf(counts, sizeof counts, "classify: %llu rows, %.3g rows/s, %.1f MB read (%.1f MB/s)",
                static_cast<unsigned long long>(rows), seconds > 0 ? double(rows) / seconds : 0.0, megabytes,
                seconds > 0 ? megabytes / seconds : 0.0);
  if (last || total_bytes_ == 0) return counts;
  return counts + share_and_eta(double(bytes) / double(total_bytes_), seconds);
}

}  // namespace perftkit
