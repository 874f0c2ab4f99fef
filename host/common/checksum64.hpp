// The checksum of every durable work-dir file (shards, results, the manifest): 64-bit FNV-1a.
// It catches truncation, torn writes and edits by hand; it is not meant to resist forgery.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perftkit {

inline constexpr std::uint64_t CHECKSUM64_SEED = 0xCBF29CE484222325ULL;  // the FNV-1a offset basis

// FNV-1a of bytes, continuing from `state` (so a checksum can be taken piece by piece).
constexpr std::uint64_t checksum64(std::string_view bytes, std::uint64_t state = CHECKSUM64_SEED) {
  for (char c : bytes) {
    state ^= static_cast<unsigned char>(c);
    state *= 0x100000001B3ULL;
  }
  return state;
}

// Sixteen lower-case hex digits.
std::string to_hex64(std::uint64_t value);

// Exactly sixteen hex digits (either case); nullopt otherwise.
std::optional<std::uint64_t> parse_hex64(std::string_view text);

}  // namespace perftkit
