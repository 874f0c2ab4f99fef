// Engine command lines: split into words as a shell would (quotes, backslashes), without
// running a shell, and the {fen} {depth} {moves} placeholders of the divide protocol.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perftkit {

// The words of text: whitespace separates them, '...' keeps everything literally, "..."
// keeps everything but \" and \\, and a backslash outside quotes escapes the next character.
// Throws UsageError on an unterminated quote or an empty command.
std::vector<std::string> split_command_words(std::string_view text);

// Each word with {fen}, {depth} and {moves} replaced (a FEN with spaces stays one word).
std::vector<std::string> fill_placeholders(const std::vector<std::string>& words, const std::string& fen, int depth,
                                           const std::string& moves);

// Whether any word holds one of the placeholders.
bool has_placeholders(const std::vector<std::string>& words);

}  // namespace perftkit
