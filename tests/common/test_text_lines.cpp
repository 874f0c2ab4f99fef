// The one line tokenizer (common/text_lines.hpp) and the readers that use it.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/parse_result.hpp"
#include "common/text_lines.hpp"
#include "notation/position_list.hpp"
#include "notation/suite.hpp"

namespace perftkit {
namespace {

std::vector<std::pair<std::uint64_t, std::string>> all_lines(std::string_view text, std::uint64_t first = 1) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  TextLines lines(text, first);
  for (std::string_view line; lines.next(line);) out.emplace_back(lines.number(), std::string(line));
  return out;
}

using Lines = std::vector<std::pair<std::uint64_t, std::string>>;

TEST(TextLines, SplitsAtNewlinesAndNumbersFromOne) {
  EXPECT_EQ(all_lines("a\nbb\n\nc"), (Lines{{1, "a"}, {2, "bb"}, {3, ""}, {4, "c"}}));
}

TEST(TextLines, AFinalNewlineStartsNoEmptyLine) {
  EXPECT_EQ(all_lines("a\nb\n"), (Lines{{1, "a"}, {2, "b"}}));
  EXPECT_TRUE(all_lines("").empty());
  EXPECT_EQ(all_lines("\n"), (Lines{{1, ""}}));
}

TEST(TextLines, DropsOneCarriageReturnBeforeEachNewline) {
  EXPECT_EQ(all_lines("a\r\nb\r\r\nc\r"), (Lines{{1, "a"}, {2, "b\r"}, {3, "c"}}));
}

TEST(TextLines, NumbersFromTheFirstNumberGiven) { EXPECT_EQ(all_lines("x\ny", 41), (Lines{{41, "x"}, {42, "y"}})); }

TEST(TextLines, TrimBlanksRemovesSpacesTabsCarriageReturnsAndNuls) {
  EXPECT_EQ(trim_blanks(std::string_view(" \t a b \r\0\v\f", 11)), "a b");
  EXPECT_EQ(trim_blanks("   "), "");
  EXPECT_EQ(without_byte_order_mark("\xEF\xBB\xBFx"), "x");
  EXPECT_EQ(without_byte_order_mark("x\xEF\xBB\xBF"), "x\xEF\xBB\xBF");
}

// The suite reader and the position list read the same lines with the same numbers.
TEST(TextLines, SuitesAndPositionListsNumberLinesAlike) {
  const std::string text =
      "\xEF\xBB\xBF# comment\r\n"
      "\r\n"
      "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\r\n"
      "perft 1 1\n";
  const Suite suite = parse_suite(text, "s.epd");
  ASSERT_EQ(suite.cases.size(), 1u);
  EXPECT_EQ(suite.cases[0].line, 3u);
  ASSERT_EQ(suite.errors.size(), 1u);
  EXPECT_EQ(suite.errors[0].source, "s.epd:4");
  const PositionList list = positions_of_lines(text, "s.epd");
  ASSERT_EQ(list.positions.size(), 1u);
  EXPECT_EQ(list.positions[0].source, "s.epd:3");
  ASSERT_EQ(list.errors.size(), 1u);
  EXPECT_EQ(list.errors[0].source, "s.epd:4");
}

TEST(ParseResult, HoldsAValueOrAnError) {
  const ParseResult<int> ok{7, {}};
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, 7);
  const ParseResult<int> bad{std::nullopt, "line 3: bad depth"};
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error, "line 3: bad depth");
}

}  // namespace
}  // namespace perftkit
