#include "common/progress_line.hpp"

#include <cmath>
#include <cstdio>

namespace perftkit {

std::string format_duration(double seconds) {
  if (seconds < 0 || !std::isfinite(seconds)) return "unknown";
  const auto total = static_cast<unsigned long long>(std::llround(seconds));
  char text[64];
  if (total >= 86400)
    std::snprintf(text, sizeof text, "%llu d %02llu:%02llu:%02llu", total / 86400, total / 3600 % 24, total / 60 % 60,
                  total % 60);
  else if (total >= 3600)
    std::snprintf(text, sizeof text, "%llu:%02llu:%02llu", total / 3600, total / 60 % 60, total % 60);
  else if (total >= 60) std::snprintf(text, sizeof text, "%llu:%02llu", total / 60, total % 60);
  else std::snprintf(text, sizeof text, "%llu s", total);
  return text;
}

std::string share_and_eta(double fraction_done, double elapsed_seconds) {
  if (!(fraction_done > 0 && fraction_done < 1)) return {};
  char text[32];
  std::snprintf(text, sizeof text, ", %.1f%%, ETA ", 100 * fraction_done);
  return text + format_duration(elapsed_seconds * (1 - fraction_done) / fraction_done);
}

ProgressLine::ProgressLine(std::ostream& out, bool terminal)
    : out_(out),
      terminal_(terminal),
      interval_(terminal ? std::chrono::milliseconds(250) : std::chrono::milliseconds(5000)) {}

void ProgressLine::update(std::string_view text, bool force) {
  if (!force && !due()) return;
  last_drawn_ = Clock::now();
  if (terminal_) {
    out_ << "\r\033[K" << text << std::flush;
    drawn_in_place_ = true;
  } else {
    out_ << text << '\n' << std::flush;
  }
}

void ProgressLine::clear() {
  if (drawn_in_place_) out_ << "\r\033[K" << std::flush;
  drawn_in_place_ = false;
}

void ProgressLine::finish(std::string_view text) {
  if (terminal_) out_ << "\r\033[K";
  out_ << text << '\n' << std::flush;
  drawn_in_place_ = false;
}

}  // namespace perftkit
