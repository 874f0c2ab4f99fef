// Progress of a classify run on stderr: rows, rows/s, bytes read from the files (compressed
// bytes for a compressed stream) and MB/s, share of the input and ETA (not for a pipe, whose
// size is unknown). Redrawn in place on a terminal, one line every few seconds otherwise.
#pragma once

#include <chrono>
#include <cstdint>

namespace perftkit {

class ProgressMeter {
 public:
  // total_bytes: the size of the input, 0 when unknown (no share and no ETA then).
  ProgressMeter(std::uint64_t total_bytes, bool terminal);

  // Shows the state when the last line is old enough; cheap otherwise.
  void update(std::uint64_t rows, std::uint64_t bytes);
  // Shows the final state and ends the line.
  void finish(std::uint64_t rows, std::uint64_t bytes);

 private:
  void show(std::uint64_t rows, std::uint64_t bytes, bool last);

  using Clock = std::chrono::steady_clock;
  std::uint64_t total_bytes_;
  bool terminal_;
  Clock::time_point start_ = Clock::now(), last_shown_ = Clock::now();
};

}  // namespace perftkit
