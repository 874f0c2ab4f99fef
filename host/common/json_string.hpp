// JSON strings: the one set of escaping rules for every JSON perftkit writes (classify's JSON
// Lines rows and the JsonWriter of perft, bench, verify, status and the rest).
//   - quote and backslash: \" and \\;
//   - control bytes below 0x20: \u00XX (a line break is \u000a, a tab \u0009);
//   - well-formed UTF-8 sequences: kept as they are;
//   - any other byte (not UTF-8, overlong, a surrogate, cut short): U+FFFD, written \ufffd.
// So the output is valid JSON in valid UTF-8 whatever bytes the text held.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace perftkit {

// The most bytes put_json_string writes for a text of n bytes (six per byte, two quotes).
constexpr std::size_t json_string_bound(std::size_t n) { return 6 * n + 2; }

// Writes text as a JSON string, quotes included, at p (with json_string_bound(text.size())
// bytes of room); returns the end.
char* put_json_string(char* p, std::string_view text);

// text escaped as above, without the surrounding quotes.
std::string json_escape(std::string_view text);

// The length of the well-formed UTF-8 sequence at the start of text (1 to 4), or 0 when there
// is none (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text);

}  // namespace perftkit
