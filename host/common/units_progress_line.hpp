// The progress of a long count on stderr, drawn from a thread of its own: units done out of
// the total, the share and the time left (common/progress_line), for a plain perft's units
// and for a work dir's shards alike. The time left is reckoned from the units done since the
// line first saw them, so a resumed work dir's earlier shards do not make it look fast.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "common/progress_line.hpp"
#include "common/work_progress.hpp"

namespace perftkit {

class UnitsProgressLine {
 public:
  // "LABEL: 390 of 1024 UNIT_NAME, 38.1%, ETA 0:17", once units.total is known. terminal:
  // redrawn in place from 2 s on, else a line every few seconds from the start and a last
  // one with the time taken.
  UnitsProgressLine(const WorkProgress& units, std::string label, std::string unit_name, bool terminal);
  ~UnitsProgressLine() { stop(); }
  UnitsProgressLine(const UnitsProgressLine&) = delete;
  UnitsProgressLine& operator=(const UnitsProgressLine&) = delete;

  // Ends the line: erased on a terminal, else written a last time with the time taken.
  void stop();

 private:
  std::string text(std::uint64_t done, std::uint64_t total) const;
  void draw();

  const WorkProgress& units_;
  std::string label_, unit_name_;
  ProgressLine line_;
  bool terminal_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace perftkit
