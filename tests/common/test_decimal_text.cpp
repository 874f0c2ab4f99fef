// write_decimal, write_decimal_in_room and decimal_digits, against std::to_chars: every value near a power of ten
// (where the digit count changes), the extremes, and seeded random values of every size.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/decimal_text.hpp"

namespace perftkit {
namespace {

std::string expected_text(std::uint64_t value) {
  char buffer[24];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// The written text, and that nothing is written past its end.
std::string written_text(std::uint64_t value) {
  char buffer[32];
  std::fill(std::begin(buffer), std::end(buffer), '#');
  char* const end = write_decimal(buffer, value);
  EXPECT_EQ(*end, '#') << value;
  return std::string(buffer, end);
}

std::vector<std::uint64_t> values_to_check() {
  std::vector<std::uint64_t> values = {0, std::numeric_limits<std::uint64_t>::max()};
  for (std::uint64_t power = 1; power <= std::numeric_limits<std::uint64_t>::max() / 10; power *= 10)
    for (const std::uint64_t base : {power, 10 * power})
      for (int delta = -3; delta <= 3; ++delta) values.push_back(base + std::uint64_t(std::int64_t(delta)));
  std::mt19937_64 rng(20261203);
  for (int bits = 1; bits <= 64; ++bits)
    for (int i = 0; i < 200; ++i) values.push_back(rng() >> (64 - bits));
  for (std::uint64_t v = 0; v < 100000; ++v) values.push_back(v);
  return values;
}

TEST(DecimalText, WritesWhatToCharsWrites) {
  for (const std::uint64_t value : values_to_check()) {
    const std::string expected = expected_text(value);
    ASSERT_EQ(written_text(value), expected) << value;
    ASSERT_EQ(decimal_digits(value), int(expected.size())) << value;
  }
}

// write_decimal_in_room writes the same text, and touches no byte past the fourth or past
// the text's end, whichever is further.
TEST(DecimalText, InRoomWritesWhatToCharsWrites) {
  for (const std::uint64_t value : values_to_check()) {
    char buffer[32];
    std::fill(std::begin(buffer), std::end(buffer), '#');
    char* const end = write_decimal_in_room(buffer, value);
    const std::string expected = expected_text(value);
    ASSERT_EQ(std::string(buffer, end), expected) << value;
    const std::size_t touched = std::max<std::size_t>(expected.size(), 4);
    ASSERT_TRUE(std::all_of(buffer + touched, std::end(buffer), [](char c) { return c == '#'; })) << value;
  }
}

}  // namespace
}  // namespace perftkit
