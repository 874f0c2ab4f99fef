// A look at every shard of a work dir: which have a valid result, which are missing or
// corrupt, which are being counted, the exact total so far and how fast it has been growing.
// `perftkit status` and `perftkit reduce` print it; neither changes the work dir.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workdir/work_dir.hpp"

namespace perftkit {

struct WorkScan {
  std::size_t shards = 0;
  std::size_t done = 0;       // shards with a valid result
  std::size_t missing = 0;    // no result yet
  std::size_t corrupt = 0;    // a result that cannot be counted (counted again by the next worker)
  std::size_t in_flight = 0;  // shards without a valid result and with a live claim
  std::size_t stale_claims = 0;
  u128 nodes = 0;     // exact sum of the valid results: each shard once
  StatsTotals stats;  // a statistics run's: the same sum of every leaf counter
  std::uint64_t positions_done = 0;
  double worker_seconds = 0;                // sum of the valid results' counting times
  double busy_seconds = 0;                  // wall time during which some worker was counting (gaps left out)
  double first_start = 0, last_finish = 0;  // Unix times
  std::vector<std::string> problems;        // corrupt results, and strays in results/ (never counted)
  std::vector<std::uint32_t> missing_ids;   // ids of the shards without a result
  std::vector<std::uint32_t> corrupt_ids;   // ids of the shards whose result cannot be counted

  bool complete() const { return done == shards; }
  // Nodes per second of the whole run while it was running, and of one worker.
  double run_rate() const { return busy_seconds > 0 ? double(nodes) / busy_seconds : 0; }
  double worker_rate() const { return worker_seconds > 0 ? double(nodes) / worker_seconds : 0; }
  // Seconds left at the pace so far (shards per busy second); negative when unknown.
  double eta_seconds() const;
};

// Reads every result (and claim) of dir. Claims count as live for claim_timeout_seconds.
WorkScan scan_work_dir(const WorkDir& dir, double claim_timeout_seconds);

}  // namespace perftkit
