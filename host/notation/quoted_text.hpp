// Text from outside input, quoted for a message: printable ASCII kept, every other byte as
// \xNN, so that no control byte of a damaged or binary file reaches a terminal.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace perftkit {

// 'text' with its unprintable bytes escaped; past max_shown bytes, cut short with "...".
std::string quoted_text(std::string_view text, std::size_t max_shown = std::numeric_limits<std::size_t>::max());

}  // namespace perftkit
