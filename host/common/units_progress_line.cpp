#include "common/units_progress_line.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <utility>

namespace perftkit {

UnitsProgressLine::UnitsProgressLine(const WorkProgress& units, std::string label, std::string unit_name, bool terminal)
    : units_(units),
      label_(std::move(label)),
      unit_name_(std::move(unit_name)),
      line_(std::cerr, terminal),
      terminal_(terminal),
      thread_([this] { draw(); }) {}

void UnitsProgressLine::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  const std::uint64_t total = units_.total.load();
  if (terminal_) line_.clear();
  else if (total) line_.finish(text(units_.done.load(), total) + " in " + format_duration(line_.elapsed_seconds()));
}

std::string UnitsProgressLine::text(std::uint64_t done, std::uint64_t total) const {
  return label_ + ": " + std::to_string(done) + " of " + std::to_string(total) + " " + unit_name_;
}

void UnitsProgressLine::draw() {
  using Clock = std::chrono::steady_clock;
  bool first = true;
  std::uint64_t done_at_first = 0;
  Clock::time_point first_seen;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [&] { return stopping_; })) {
    const std::uint64_t total = units_.total.load(), done = units_.done.load();
    if (!total || (!first && !line_.due())) continue;
    // On a terminal a run of a moment draws nothing: the line starts after 2 s.
    if (terminal_ && line_.elapsed_seconds() < 2) continue;
    if (first) {
      done_at_first = done;
      first_seen = Clock::now();
    }
    std::string shown = text(done, total);
    if (done < total) {
      char share[24];
      std::snprintf(share, sizeof share, ", %.1f%%", 100.0 * double(done) / double(total));
      shown += share;
      // The time left at the rate since the line began: nothing to say before a unit is done.
      if (done > done_at_first) {
        const double seconds = std::chrono::duration<double>(Clock::now() - first_seen).count();
        shown += ", ETA " + format_duration(seconds * double(total - done) / double(done - done_at_first));
      }
    }
    line_.update(shown, first);
    first = false;
  }
}

}  // namespace perftkit
