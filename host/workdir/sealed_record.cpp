#include "workdir/sealed_record.hpp"

#include <charconv>
#include <stdexcept>

#include "common/checksum64.hpp"

namespace perftkit {
namespace {

constexpr std::string_view CHECKSUM_KEY = "checksum ";

}  // namespace

void SealedRecord::add(std::string_view key, std::string_view value) {
  if (key.empty() || key.find_first_of(" \n") != std::string_view::npos || value.find('\n') != std::string_view::npos)
    throw std::invalid_argument("sealed record: bad line '" + std::string(key) + "'");
  lines_.emplace_back(key, value);
}

std::string SealedRecord::body() const {
  std::string text;
  for (const auto& [key, value] : lines_) text.append(key).append(1, ' ').append(value).append(1, '\n');
  return text;
}

std::uint64_t SealedRecord::checksum() const { return checksum64(body()); }

std::string SealedRecord::seal() const {
  std::string text = body();
  const std::uint64_t sum = checksum64(text);
  return text.append(CHECKSUM_KEY).append(to_hex64(sum)).append(1, '\n');
}

std::optional<SealedRecord> SealedRecord::open(std::string_view text, std::string& error) {
  if (text.empty() || text.back() != '\n') {
    error = "truncated (no final newline)";
    return std::nullopt;
  }
  const std::size_t last = text.rfind('\n', text.size() - 2);
  const std::size_t seal_at = last == std::string_view::npos ? 0 : last + 1;
  const std::string_view seal_line = text.substr(seal_at, text.size() - 1 - seal_at);
  if (!seal_line.starts_with(CHECKSUM_KEY)) {
    error = "truncated (no checksum line)";
    return std::nullopt;
  }
  const std::optional<std::uint64_t> sealed = parse_hex64(seal_line.substr(CHECKSUM_KEY.size()));
  const std::string_view body = text.substr(0, seal_at);
  if (!sealed || *sealed != checksum64(body)) {
    error = "checksum mismatch";
    return std::nullopt;
  }
  SealedRecord record;
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t end = body.find('\n', at);
    const std::string_view line = body.substr(at, end - at);
    const std::size_t blank = line.find(' ');
    if (blank == 0 || blank == std::string_view::npos) {
      error = "malformed line '" + std::string(line) + "'";
      return std::nullopt;
    }
    record.lines_.emplace_back(line.substr(0, blank), line.substr(blank + 1));
    at = end + 1;
  }
  return record;
}

const std::string* SealedRecord::find(std::string_view key) const {
  for (const auto& [k, value] : lines_)
    if (k == key) return &value;
  return nullptr;
}

std::optional<std::uint64_t> SealedRecord::find_unsigned(std::string_view key) const {
  const std::string* text = find(key);
  std::uint64_t value = 0;
  if (!text || text->empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

std::optional<u128> SealedRecord::find_u128(std::string_view key) const {
  const std::string* text = find(key);
  return text ? parse_u128(*text) : std::nullopt;
}

std::optional<std::uint64_t> SealedRecord::find_hex64(std::string_view key) const {
  const std::string* text = find(key);
  return text ? parse_hex64(*text) : std::nullopt;
}

std::optional<double> SealedRecord::find_non_negative(std::string_view key) const {
  const std::string* text = find(key);
  double value = 0;
  if (!text || text->empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || !(value >= 0)) return std::nullopt;
  return value;
}

}  // namespace perftkit
