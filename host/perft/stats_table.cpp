#include "perft/stats_table.hpp"

namespace perftkit {
namespace {

std::uint64_t buckets_in(std::size_t bytes) {
  const std::uint64_t buckets = bytes / sizeof(SubtreeBucket);
  return buckets ? buckets : 1;
}

}  // namespace

StatsTable::StatsTable(std::size_t bytes, unsigned threads)
    : memory_(buckets_in(bytes) * sizeof(SubtreeBucket), threads),
      view_{reinterpret_cast<SubtreeBucket*>(memory_.data()), buckets_in(bytes)} {}

void StatsTable::record(const StatsTableUse& use) {
  probes_.fetch_add(use.probes, std::memory_order_relaxed);
  hits_.fetch_add(use.hits, std::memory_order_relaxed);
  stores_.fetch_add(use.stores, std::memory_order_relaxed);
}

StatsTableUse StatsTable::use() const {
  return {probes_.load(std::memory_order_relaxed), hits_.load(std::memory_order_relaxed),
          stores_.load(std::memory_order_relaxed)};
}

}  // namespace perftkit
