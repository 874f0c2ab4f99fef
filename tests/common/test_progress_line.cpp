// The one progress renderer (common/progress_line.hpp): durations, share and ETA, and how
// the line is drawn on a terminal and in a log.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/progress_line.hpp"

namespace perftkit {
namespace {

TEST(ProgressLine, DurationsReadAsSecondsMinutesHoursAndDays) {
  EXPECT_EQ(format_duration(0), "0 s");
  EXPECT_EQ(format_duration(9.4), "9 s");
  EXPECT_EQ(format_duration(59.6), "1:00");
  EXPECT_EQ(format_duration(252), "4:12");
  EXPECT_EQ(format_duration(3903), "1:05:03");
  EXPECT_EQ(format_duration(2 * 86400 + 3903), "2 d 01:05:03");
  EXPECT_EQ(format_duration(-1), "unknown");
}

TEST(ProgressLine, EtaComesFromTheRateSoFar) {
  // A quarter done in 30 s: 90 s to go.
  EXPECT_EQ(share_and_eta(0.25, 30), ", 25.0%, ETA 1:30");
  EXPECT_EQ(share_and_eta(0, 30), "");
  EXPECT_EQ(share_and_eta(1, 30), "");
}

TEST(ProgressLine, OnATerminalTheLineIsRedrawnInPlaceAndCleared) {
  std::ostringstream out;
  ProgressLine line(out, true);
  EXPECT_FALSE(line.due());  // just made: nothing to redraw yet
  line.update("a", true);
  line.update("b");  // not due: the last line is fresh
  EXPECT_EQ(out.str(), "\r\033[Ka");
  line.clear();
  line.clear();  // nothing left to clear
  EXPECT_EQ(out.str(), "\r\033[Ka\r\033[K");
  line.finish("done");
  EXPECT_EQ(out.str(), "\r\033[Ka\r\033[K\r\033[Kdone\n");
}

TEST(ProgressLine, InALogEachLineIsWholeAndNothingIsErased) {
  std::ostringstream out;
  ProgressLine line(out, false);
  line.update("a", true);
  line.clear();
  line.finish("done");
  EXPECT_EQ(out.str(), "a\ndone\n");
}

}  // namespace
}  // namespace perftkit
