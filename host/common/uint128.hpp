// Exact 128-bit node totals (start-position perft(14) exceeds 2^64).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perftkit {

__extension__ typedef unsigned __int128 u128;

// Decimal digits of v.
std::string to_string_u128(u128 v);

// Parses a non-negative decimal integer that fits 128 bits; nullopt otherwise.
std::optional<u128> parse_u128(std::string_view text);

}  // namespace perftkit
