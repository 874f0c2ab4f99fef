// The CPU core's table of subtree statistics: the compact, lossy, lock-free table of
// pipeline/stats_subtree_table.hpp in memory that is mapped and faulted in up front.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "perft/table_memory.hpp"
#include "perftkit/position_key.hpp"
#include "pipeline/stats_subtree_table.hpp"

namespace perftkit {

// How a run used its statistics table, for the hit rate on stderr and in the results.
struct StatsTableUse {
  std::uint64_t probes = 0, hits = 0, stores = 0;  // stores: entries kept (not too long, nor displaced)
};

class StatsTable {
 public:
  // A table of at most `bytes` bytes (at least one 64-byte bucket), its pages faulted in on
  // `threads` threads. Throws std::bad_alloc when the memory cannot be mapped.
  explicit StatsTable(std::size_t bytes, unsigned threads = 1);

  std::size_t bytes() const { return memory_.bytes(); }
  // The table, for probe_stats() and store_stats() (pipeline/stats_subtree_table.hpp) on the
  // CPU core's kernels and the pipeline's systems; valid while this lives.
  StatsTableView view() const { return view_; }

  // Adds one work unit's use (threads add theirs as they finish a unit).
  void record(const StatsTableUse& use);
  StatsTableUse use() const;

 private:
  TableMemory memory_;
  StatsTableView view_;
  std::atomic<std::uint64_t> probes_{0}, hits_{0}, stores_{0};
};

}  // namespace perftkit
