#include "workdir/shard_assignment.hpp"

#include <chrono>
#include <set>
#include <thread>
#include <vector>

namespace perftkit {
namespace {

// Counts shard id if it still needs it and this worker gets the claim; true when counted.
bool count_if_needed(ShardWorker& worker, ShardClaims& claims, std::uint32_t id, const AssignmentOptions& options,
                     std::set<std::uint32_t>& warned, WorkTally& tally) {
  const WorkDir& dir = worker.dir();
  ResultCheck before = dir.check_result(id);
  if (before.state == ResultState::VALID) {
    claims.remove_if_stale(id);
    return false;
  }
  if (!claims.try_claim(id)) return false;
  before = dir.check_result(id);  // another worker may have finished it meanwhile
  if (before.state == ResultState::VALID) {
    claims.release(id);
    return false;
  }
  if (before.state == ResultState::CORRUPT && warned.insert(id).second && options.warnings)
    std::fprintf(options.warnings, "perftkit: warning: shard %u: its result is not usable (%s); counting it again\n",
                 static_cast<unsigned>(id), before.problem.c_str());
  try {
    const ShardResult result = worker.count_and_record(id);
    ++tally.counted;
    tally.nodes += result.nodes;
    if (before.state == ResultState::CORRUPT) ++tally.recounted;
  } catch (...) {
    claims.release(id);
    throw;
  }
  claims.release(id);
  return true;
}

}  // namespace

WorkTally count_assigned_shards(ShardWorker& worker, ShardClaims& claims, const AssignmentOptions& options) {
  const WorkDir& dir = worker.dir();
  std::vector<std::uint32_t> part;
  for (std::size_t id = options.worker; id < dir.shard_count(); id += options.workers)
    part.push_back(std::uint32_t(id));

  WorkTally tally;
  std::set<std::uint32_t> warned, failed;
  const auto quota_reached = [&] { return options.max_shards && tally.counted >= options.max_shards; };
  for (;;) {
    bool pending = false;
    for (std::uint32_t id : part) {
      if (quota_reached()) return tally;
      if (failed.count(id)) continue;
      try {
        count_if_needed(worker, claims, id, options, warned, tally);
      } catch (const WorkDirError& e) {
        failed.insert(id);
        ++tally.failed;
        if (options.warnings)
          std::fprintf(options.warnings, "perftkit: error: shard %u: %s\n", static_cast<unsigned>(id), e.what());
        continue;
      }
      if (dir.check_result(id).state != ResultState::VALID) pending = true;
    }
    if (!options.wait_for_others || !pending) return tally;
    std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_seconds));
  }
}

}  // namespace perftkit
