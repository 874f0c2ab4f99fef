// Small text records of `key value` lines, sealed by a last line `checksum HEX` (checksum64 of
// every byte before it): the shard results and the manifest of a work dir. A record that was
// truncated, torn or edited fails to open.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/uint128.hpp"

namespace perftkit {

class SealedRecord {
 public:
  // Appends a line; key has no blank, value no newline (it may hold blanks: a FEN).
  void add(std::string_view key, std::string_view value);

  // Every line, then the checksum line.
  std::string seal() const;

  // The record in text, when its checksum line is last and matches; otherwise nullopt and
  // error says why. Every line must be `key value`.
  static std::optional<SealedRecord> open(std::string_view text, std::string& error);

  // The value of the first line with key; nullptr when there is none.
  const std::string* find(std::string_view key) const;

  // The value of key read as a decimal integer (64 or 128 bits), sixteen hex digits or a
  // non-negative decimal fraction; nullopt when it is absent or not exactly that.
  std::optional<std::uint64_t> find_unsigned(std::string_view key) const;
  std::optional<u128> find_u128(std::string_view key) const;
  std::optional<std::uint64_t> find_hex64(std::string_view key) const;
  std::optional<double> find_non_negative(std::string_view key) const;

  // The checksum the record was sealed (or would be sealed) with.
  std::uint64_t checksum() const;

 private:
  std::string body() const;
  std::vector<std::pair<std::string, std::string>> lines_;
};

}  // namespace perftkit
