#include "workdir/manifest.hpp"

#include <algorithm>
#include <charconv>

#include "common/checksum64.hpp"
#include "workdir/sealed_record.hpp"

namespace perftkit {
namespace {

SealedRecord manifest_record(const WorkManifest& m) {
  std::string positions, checksums;
  for (std::size_t i = 0; i < m.shard_count(); ++i) {
    if (i) positions += ' ', checksums += ' ';
    positions += std::to_string(m.shard_positions[i]);
    checksums += to_hex64(m.shard_checksums[i]);
  }
  SealedRecord record;
  record.add("perftkit-work-dir", std::to_string(WORK_DIR_FORMAT));
  record.add("fen", m.fen);
  record.add("depth", std::to_string(m.depth));
  record.add("split_plies", std::to_string(m.split_plies));
  record.add("frontier_positions", std::to_string(m.frontier_positions));
  record.add("frontier_paths", to_string_u128(m.frontier_paths));
  record.add("shards", std::to_string(m.shard_count()));
  record.add("shard_positions", positions);
  record.add("shard_checksums", checksums);
  if (m.stats) record.add("stats", "1");  // (a node count's manifest, and so its run id, stays as it was)
  return record;
}

// Blank-separated words of text.
std::vector<std::string_view> words(const std::string& text) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out.emplace_back(text.data() + at, end - at);
    at = end + 1;
  }
  return out;
}

}  // namespace

std::uint64_t WorkManifest::parameters_key() const {
  const std::string text = fen + '\n' + std::to_string(depth) + '\n' + std::to_string(split_plies) + '\n' +
                           std::to_string(shard_count()) + '\n' + (stats ? "stats\n" : "");
  return checksum64(text);
}

std::string encode_manifest(const WorkManifest& manifest) { return manifest_record(manifest).seal(); }

std::uint64_t manifest_run_id(const WorkManifest& manifest) { return manifest_record(manifest).checksum(); }

std::optional<WorkManifest> decode_manifest(std::string_view text, std::string& error) {
  const std::optional<SealedRecord> record = SealedRecord::open(text, error);
  if (!record) return std::nullopt;
  const auto fail = [&](const std::string& why) {
    error = why;
    return std::nullopt;
  };
  const auto format = record->find_unsigned("perftkit-work-dir");
  if (!format) return fail("not a perftkit work-dir manifest");
  if (*format != WORK_DIR_FORMAT)
    return fail("manifest format " + std::to_string(*format) + ", this perftkit reads format " +
                std::to_string(WORK_DIR_FORMAT));
  const std::string* fen = record->find("fen");
  const auto depth = record->find_unsigned("depth");
  const auto split_plies = record->find_unsigned("split_plies");
  const auto frontier_positions = record->find_unsigned("frontier_positions");
  const auto frontier_paths = record->find_u128("frontier_paths");
  const auto shards = record->find_unsigned("shards");
  if (!fen || !depth || *depth > 64 || !split_plies || !frontier_positions || !frontier_paths || !shards ||
      !record->find("shard_positions") || !record->find("shard_checksums"))
    return fail("a field is missing or malformed");
  WorkManifest m;
  m.fen = *fen;
  m.depth = int(*depth);
  m.split_plies = int(std::min<std::uint64_t>(*split_plies, 64));
  m.frontier_positions = *frontier_positions;
  m.frontier_paths = *frontier_paths;
  if (const std::string* stats = record->find("stats")) {
    if (*stats != "1") return fail("stats is malformed");
    m.stats = true;
  }

  std::uint64_t total = 0;
  for (std::string_view word : words(*record->find("shard_positions"))) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
    if (ec != std::errc() || end != word.data() + word.size()) return fail("shard_positions is malformed");
    m.shard_positions.push_back(n);
    total += n;
  }
  for (std::string_view word : words(*record->find("shard_checksums"))) {
    const std::optional<std::uint64_t> sum = parse_hex64(word);
    if (!sum) return fail("shard_checksums is malformed");
    m.shard_checksums.push_back(*sum);
  }
  if (m.shard_positions.size() != *shards || m.shard_checksums.size() != *shards)
    return fail("the shard lists do not have " + std::to_string(*shards) + " entries");
  if (total != m.frontier_positions) return fail("the shards' positions do not add up to frontier_positions");
  if (m.split_plies < 1 || m.depth <= m.split_plies) return fail("split_plies is not between 1 and depth - 1");
  return m;
}

}  // namespace perftkit
