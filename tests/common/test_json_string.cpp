// The one JSON string escaper (common/json_string.hpp), and the JSON that uses it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <string_view>

#include "common/json_string.hpp"
#include "common/json_writer.hpp"

namespace perftkit {
namespace {

std::string as_json_string(std::string_view text) {
  std::string out(json_string_bound(text.size()), '\0');
  out.resize(std::size_t(put_json_string(out.data(), text) - out.data()));
  return out;
}

TEST(JsonString, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(as_json_string(R"(a "b" \c)"), R"("a \"b\" \\c")");
  EXPECT_EQ(as_json_string(""), R"("")");
  EXPECT_EQ(json_escape(R"(say "hi")"), R"(say \"hi\")");
}

// Every control byte, line breaks and tabs included, as \u00XX; DEL is valid JSON as it is.
TEST(JsonString, ControlBytesAreWrittenAsUnicodeEscapes) {
  EXPECT_EQ(as_json_string("a\nb\tc\rd"), R"("a\u000ab\u0009c\u000dd")");
  EXPECT_EQ(as_json_string(std::string_view("\x00\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(as_json_string("\x7f"), "\"\x7f\"");
}

TEST(JsonString, WellFormedUtf8IsKept) {
  EXPECT_EQ(as_json_string("caf\xc3\xa9"), "\"caf\xc3\xa9\"");            // U+00E9
  EXPECT_EQ(as_json_string("\xe2\x99\x9e"), "\"\xe2\x99\x9e\"");          // U+265E, a black knight
  EXPECT_EQ(as_json_string("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");  // U+1F600
  EXPECT_EQ(as_json_string("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");  // U+10FFFF, the last
}

// Each byte that starts no well-formed sequence becomes one U+FFFD.
TEST(JsonString, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(as_json_string("\xff"), R"("\ufffd")");
  EXPECT_EQ(as_json_string("a\xc3"), R"("a\ufffd")");                              // cut short
  EXPECT_EQ(as_json_string("\xc0\x80"), R"("\ufffd\ufffd")");                      // overlong NUL
  EXPECT_EQ(as_json_string("\xe0\x80\xaf"), R"("\ufffd\ufffd\ufffd")");            // overlong '/'
  EXPECT_EQ(as_json_string("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");            // a surrogate
  EXPECT_EQ(as_json_string("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // above U+10FFFF
  EXPECT_EQ(utf8_sequence_length(""), 0u);
  EXPECT_EQ(utf8_sequence_length("a"), 1u);
  EXPECT_EQ(utf8_sequence_length("\xc3\xa9!"), 2u);
}

// The bound holds for the worst case: every byte a control byte.
TEST(JsonString, TheBoundCoversTheWorstCase) {
  const std::string controls(100, '\x01');
  EXPECT_EQ(as_json_string(controls).size(), json_string_bound(controls.size()));
}

// JsonWriter (perft, bench, verify, status...) writes strings by the same rules as classify.
TEST(JsonString, JsonWriterUsesTheSameRules) {
  std::ostringstream out;
  JsonWriter json(out);
  json.begin_object().field("line\nbreak", std::string_view("tab\there \xff")).end_object();
  EXPECT_EQ(out.str(), R"({"line\u000abreak":"tab\u0009here \ufffd"})"
                       "\n");  // a closed top level ends its line
}

}  // namespace
}  // namespace perftkit
