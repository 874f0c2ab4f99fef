// The one progress renderer: a status line on stderr, with the share done and the time left.
// On a terminal it is redrawn in place a few times a second; elsewhere (a log file, a pipe)
// a whole line is written every few seconds, so that logs hold no escape codes.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <string_view>

namespace perftkit {

// "2 d 01:05:03", "1:05:03", "4:12" or "9 s"; "unknown" for a negative time.
std::string format_duration(double seconds);

// ", 42.0%, ETA 4:12": the share of the work done and the time left at the rate so far;
// empty before any work is done and after all of it.
std::string share_and_eta(double fraction_done, double elapsed_seconds);

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  // terminal: redraw in place every 250 ms; else a whole line every 5 s.
  ProgressLine(std::ostream& out, bool terminal);

  // Whether the last line is old enough to draw a new one.
  bool due() const { return Clock::now() - last_drawn_ >= interval_; }
  // Draws text when due (always when forced).
  void update(std::string_view text, bool force = false);
  // Erases a line drawn in place, so that other output can follow on a clean line.
  void clear();
  // Draws text as the last line and ends it.
  void finish(std::string_view text);

  // Seconds since the line was made: the time the work has taken so far.
  double elapsed_seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  std::ostream& out_;
  bool terminal_;
  Clock::duration interval_;
  Clock::time_point start_ = Clock::now(), last_drawn_ = start_;
  bool drawn_in_place_ = false;
};

}  // namespace perftkit
