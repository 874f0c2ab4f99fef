// The result of one shard: its exact node count (and, in a statistics run, every leaf
// counter) and what it was counted from, as a sealed
// text record (host/workdir/sealed_record.hpp). A result names its run and the checksum of the shard
// file it counted, so it is never matched to another shard or another run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/uint128.hpp"
#include "pipeline/stats_totals.hpp"

namespace perftkit {

struct ShardResult {
  std::uint64_t run_id = 0;          // manifest_run_id() of the run
  std::uint32_t shard = 0;           // the shard's id
  std::uint64_t shard_checksum = 0;  // of the shard file counted
  std::uint64_t positions = 0;       // positions in the shard
  u128 nodes = 0;                    // sum of multiplicity x perft(position, remaining depth)
  double seconds = 0;                // wall time of the count
  double finished = 0;               // when it finished: seconds since the Unix epoch
  std::string worker;                // who counted it: host, process, MPI rank
  std::string backend;               // "cpu", "cuda" or "pipeline"
  std::optional<StatsTotals> stats;  // a statistics run's: every leaf counter (stats[NODES] is nodes)
};

std::string encode_result(const ShardResult& result);

// A result read back; nullopt with the reason when it is truncated, corrupt or malformed.
std::optional<ShardResult> decode_result(std::string_view text, std::string& error);

}  // namespace perftkit
