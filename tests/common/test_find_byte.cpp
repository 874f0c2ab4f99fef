// find_byte and find_either_byte (common/find_byte.hpp) against string_view's own searches:
// the bytes at every place of texts of every length up to three vector widths, from every
// start, and absent; and a PGN string's close (pgn_chars::string_close) against the rule
// (PGN 7: a backslash escapes the byte after it) read byte by byte, on random texts; and a
// symbol's end (pgn_chars::symbol_end) against the symbol characters read byte by byte, with
// every byte value in every place of a run of them.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/find_byte.hpp"
#include "notation/pgn_chars.hpp"

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

TEST(FindByte, EitherOfTwoAgreesWithFindFirstOf) {
  for (std::size_t size = 0; size <= 48; ++size) {
    for (std::size_t place = 0; place <= size; ++place) {
      std::string text(size, 'x');
      if (place < size) text[place] = place % 2 ? '"' : '\\';
      if (place + 3 < size) text[place + 3] = '"';
      for (std::size_t from = 0; from <= size; ++from)
        ASSERT_EQ(find_either_byte(text, '"', '\\', from), std::string_view(text).find_first_of("\"\\", from))
            << "size " << size << ", place " << place << ", from " << from;
    }
  }
}

std::size_t string_close_byte_by_byte(std::string_view text, std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (text[i] == '\\') ++i;
    else if (text[i] == '"') return i;
  }
  return std::string_view::npos;
}

TEST(FindByte, AStringClosesAtItsFirstUnescapedQuote) {
  std::mt19937 random(15);
  const std::string alphabet = "ab \"\\";
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text;
    for (std::size_t i = 0, n = random() % 50; i < n; ++i) text += alphabet[random() % alphabet.size()];
    for (std::size_t from = 0; from <= text.size(); ++from)
      ASSERT_EQ(pgn_chars::string_close(text, from), string_close_byte_by_byte(text, from)) << text << " from " << from;
  }
}

// Every byte value at every place of a run of symbol characters longer than two vector
// widths, from every start before it: the end is the first byte that is no symbol character.
TEST(FindByte, ASymbolEndsAtItsFirstByteOfNoSymbol) {
  const std::string run = "Nxe5+Qh4#e8=Qa_b:c1/2-1/2O-O-OZz09";
  for (int byte = 0; byte < 256; ++byte)
    for (std::size_t place = 0; place <= run.size(); ++place) {
      std::string text = run;
      if (place < run.size()) text[place] = char(byte);
      for (std::size_t from = 0; from <= place; ++from) {
        std::size_t want = from;
        while (want < text.size() && pgn_chars::is_symbol_char(text[want])) ++want;
        ASSERT_EQ(pgn_chars::symbol_end(text, from), want)
            << "byte " << byte << ", place " << place << ", from " << from;
      }
    }
}

}  // namespace
}  // namespace perftkit
