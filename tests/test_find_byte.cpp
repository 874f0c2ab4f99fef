// find_byte (common/find_byte.hpp) against string_view::find: the byte at every place of
// texts of every length up to three vector widths, from every start, and absent.
#include <gtest/gtest.h>

#include <string>

#include "common/find_byte.hpp"

namespace perftkit {
namespace {

TEST(FindByte, AgreesWithStringFindAtEveryPlaceFromEveryStart) {
  for (std::size_t size = 0; size <= 48; ++size) {
    for (std::size_t place = 0; place <= size; ++place) {  // (place == size: absent)
      std::string text(size, 'x');
      if (place < size) text[place] = '}';
      if (size > 2) text[size / 2 + (place == size / 2)] = '{';  // a near byte, never sought
      for (std::size_t from = 0; from <= size; ++from)
        ASSERT_EQ(find_byte(text, '}', from), std::string_view(text).find('}', from))
            << "size " << size << ", '}' at " << place << ", from " << from;
    }
  }
}

TEST(FindByte, FindsTheFirstOfSeveralAndHighBytes) {
  const std::string text = "ab}cd}\xFF\xFE}";
  EXPECT_EQ(find_byte(text, '}', 0), 2u);
  EXPECT_EQ(find_byte(text, '}', 3), 5u);
  EXPECT_EQ(find_byte(text, '\xFE', 0), 7u);
  EXPECT_EQ(find_byte("", '}', 0), std::string_view::npos);
}

}  // namespace
}  // namespace perftkit
