// Progress of a classify run on stderr: rows, rows/s, bytes read from the files (compressed
// bytes for a compressed stream) and MB/s, share of the input and ETA (not for a pipe, whose
// size is unknown), drawn by the common ProgressLine.
#pragma once

#include <cstdint>
#include <string>

#include "common/progress_line.hpp"

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
  std::string text(std::uint64_t rows, std::uint64_t bytes, bool last) const;

  std::uint64_t total_bytes_;
  ProgressLine line_;
};

}  // namespace perftkit
