#include "workdir/shard_result.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "common/checksum64.hpp"
#include "workdir/sealed_record.hpp"

namespace perftkit {
namespace {

constexpr std::string_view RESULT_FORMAT = "1";

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// The counters of a "stats" field: STAT_FIELD_NB decimal numbers, blank-separated.
std::optional<StatsTotals> parse_stats(std::string_view text) {
  StatsTotals totals;
  for (int f = 0; f < STAT_FIELD_NB; ++f) {
    const std::size_t end = std::min(text.find(' '), text.size());
    const std::optional<u128> value = parse_u128(text.substr(0, end));
    if (!value) return std::nullopt;
    totals.count[f] = *value;
    text.remove_prefix(end == text.size() ? end : end + 1);
  }
  if (!text.empty()) return std::nullopt;
  return totals;
}

}  // namespace

std::string encode_result(const ShardResult& r) {
  SealedRecord record;
  record.add("perftkit-shard-result", RESULT_FORMAT);
  record.add("run", to_hex64(r.run_id));
  record.add("shard", std::to_string(r.shard));
  record.add("shard_checksum", to_hex64(r.shard_checksum));
  record.add("positions", std::to_string(r.positions));
  record.add("nodes", to_string_u128(r.nodes));
  record.add("seconds", fixed(r.seconds, 6));
  record.add("finished", fixed(r.finished, 3));
  record.add("worker", r.worker.empty() ? "-" : r.worker);
  record.add("backend", r.backend.empty() ? "-" : r.backend);
  if (r.stats) {
    std::string counters;
    for (int f = 0; f < STAT_FIELD_NB; ++f) counters += (f ? " " : "") + to_string_u128(r.stats->count[f]);
    record.add("stats", counters);
  }
  return record.seal();
}

std::optional<ShardResult> decode_result(std::string_view text, std::string& error) {
  const std::optional<SealedRecord> record = SealedRecord::open(text, error);
  if (!record) return std::nullopt;
  const std::string* format = record->find("perftkit-shard-result");
  if (!format || *format != RESULT_FORMAT) {
    error = "not a shard result of format " + std::string(RESULT_FORMAT);
    return std::nullopt;
  }
  const auto run = record->find_hex64("run");
  const auto shard = record->find_unsigned("shard");
  const auto shard_checksum = record->find_hex64("shard_checksum");
  const auto positions = record->find_unsigned("positions");
  const auto nodes = record->find_u128("nodes");
  const auto seconds = record->find_non_negative("seconds");
  const auto finished = record->find_non_negative("finished");
  const std::string* worker = record->find("worker");
  const std::string* backend = record->find("backend");
  if (!run || !shard || *shard > std::numeric_limits<std::uint32_t>::max() || !shard_checksum || !positions || !nodes ||
      !seconds || !finished || !worker || !backend) {
    error = "a field is missing or malformed";
    return std::nullopt;
  }
  ShardResult result{*run,    std::uint32_t(*shard), *shard_checksum, *positions, *nodes, *seconds, *finished, *worker,
                     *backend};
  if (const std::string* counters = record->find("stats")) {
    if (!(result.stats = parse_stats(*counters)) || (*result.stats)[NODES] != result.nodes) {
      error = "its statistics are malformed or disagree with its node count";
      return std::nullopt;
    }
  }
  return result;
}

}  // namespace perftkit
