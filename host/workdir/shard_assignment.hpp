// Which shards a worker counts when no MPI coordinator hands them out: any it can claim
// (dynamic, host/workdir/shard_claims.hpp), or its part of a fixed partition (`--worker K --workers N`,
// shard ids K, K+N, K+2N, ..., still claimed so that other workers skip them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "workdir/shard_claims.hpp"
#include "workdir/shard_worker.hpp"

namespace perftkit {

struct AssignmentOptions {
  unsigned worker = 0;           // this worker's part of the partition...
  unsigned workers = 1;          // ...of this many parts (1: every shard)
  std::size_t max_shards = 0;    // stop after counting this many (0: no limit)
  bool wait_for_others = false;  // then wait until every shard of the part has a valid result
  double poll_seconds = 1;       // between looks at the shards others hold, when waiting
  std::FILE* warnings = stderr;  // corrupt results and damaged shards are reported here
};

struct WorkTally {
  std::size_t counted = 0;    // shards this worker counted and recorded
  std::size_t recounted = 0;  // of which had a corrupt result before
  std::size_t failed = 0;     // shards that could not be counted (damaged shard files)
  u128 nodes = 0;             // their total
};

// Counts the shards of the part that have no valid result and that this worker can claim,
// lowest id first. A corrupt result is reported and counted again, never used.
WorkTally count_assigned_shards(ShardWorker& worker, ShardClaims& claims, const AssignmentOptions& options);

}  // namespace perftkit
