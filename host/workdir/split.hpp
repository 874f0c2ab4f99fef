// Cutting a perft into shards: the merged frontier at a split depth (half-move clocks set to
// 0: a count does not depend on them), in contiguous runs of about equal numbers of distinct
// positions (neighbours share subtrees, which a worker's transposition table then reuses). Deterministic: the same
// request always gives the same shards, byte for byte, so a lost shard file can be written again.
#pragma once

#include <cstddef>
#include <vector>

#include "pipeline/frontier.hpp"
#include "common/uint128.hpp"

namespace perftkit {

inline constexpr std::size_t DEFAULT_SHARDS = 1024;
inline constexpr std::size_t MAX_SHARDS = 1'000'000;  // ids fit the six digits of the file names
// The automatic split is the shallowest ply with at least this many positions per shard.
inline constexpr std::size_t AUTO_SPLIT_POSITIONS_PER_SHARD = 8;

struct SplitRequest {
  Position root{};
  int depth = 2;           // at least 2: one ply to split at, one below it
  std::size_t shards = 0;  // 0: DEFAULT_SHARDS; fewer when the frontier has fewer positions
  int split_plies = 0;     // 0: automatic; else 1..depth-1
  bool stats = false;      // leaf counters: a half-move clock the leaves can see is kept
};

struct WorkSplit {
  int split_plies = 0;
  std::vector<FrontierNode> frontier;  // distinct positions at the split (root_move 0)
  std::vector<std::size_t>
      shard_begin;  // shard i is frontier[shard_begin[i], shard_begin[i+1]); one extra entry at the end
  u128 paths = 0;   // sum of multiplicities: perft(split_plies)

  std::size_t shard_count() const { return shard_begin.empty() ? 0 : shard_begin.size() - 1; }
};

// The split of request. Throws std::invalid_argument for a depth below 2, a split outside
// 1..depth-1, or a shard count of 0 or above MAX_SHARDS.
WorkSplit split_into_shards(const SplitRequest& request);

// How many shards a request for `requested` (0: the default) gives on a frontier of
// `positions` distinct positions.
std::size_t shard_count_for(std::size_t requested, std::size_t positions);

}  // namespace perftkit
