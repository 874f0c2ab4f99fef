#include "workdir/shard_worker.hpp"

#include <unistd.h>

#include <chrono>
#include <mutex>
#include <string>

#include "common/interrupt.hpp"
#include "workdir/shard_claims.hpp"

namespace perftkit {

double unix_time_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string default_worker_name() { return this_host_name() + ":" + std::to_string(::getpid()); }

ShardWorker::ShardWorker(const WorkDir& dir, const PerftRequest& settings, std::string name, WorkProgress* progress)
    : dir_(dir), counter_(settings), name_(std::move(name)), progress_(progress) {}

ShardResult ShardWorker::count(std::uint32_t id) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<FrontierNode> nodes = dir_.load_shard(id);
  ShardResult result;
  result.run_id = dir_.run_id();
  result.shard = id;
  result.shard_checksum = dir_.manifest().shard_checksums[id];
  result.positions = nodes.size();
  if (dir_.manifest().stats) {
    result.stats = counter_.count_stats(std::move(nodes), dir_.manifest().remaining_depth());
    result.nodes = (*result.stats)[NODES];
  } else {
    result.nodes = counter_.count(std::move(nodes), dir_.manifest().remaining_depth(), false, 1)[0];
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.finished = unix_time_now();
  result.worker = name_;
  result.backend = counter_.backend_name();
  return result;
}

ShardResult ShardWorker::count_and_record(std::uint32_t id) {
  ShardResult result = count(id);
  record(result);
  return result;
}

void ShardWorker::record(const ShardResult& result) {
  dir_.write_result(result);
  if (progress_) ++progress_->done;
  std::lock_guard lock(done_mutex_);  // rank 0 records its own results and those sent to it on two threads
  if (done_) tell_interrupts_where_the_run_stands(*done_ + 1);
}

void ShardWorker::tell_interrupts_where_the_run_stands(std::size_t done) {
  done_ = done;
  set_interrupt_note(std::to_string(done) + " of " + std::to_string(dir_.shard_count()) +
                     " shards done; run the same command to resume");
}

}  // namespace perftkit
