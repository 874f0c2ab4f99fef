// Counting shards of a work dir: one at a time, each with every thread (or GPU) of this
// process, through one FrontierCounter so the transposition table carries from shard to shard.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "common/work_progress.hpp"
#include "perft/driver.hpp"
#include "workdir/shard_result.hpp"
#include "workdir/work_dir.hpp"

namespace perftkit {

class ShardWorker {
 public:
  // settings: backend, threads, hash (host/perft/driver.hpp); name: who counts ("host:pid");
  // progress: when not null, its `done` goes up by one for each result recorded (a progress
  // line draws it). Throws std::runtime_error when the backend cannot run here.
  ShardWorker(const WorkDir& dir, const PerftRequest& settings, std::string name, WorkProgress* progress);

  // Shard id counted; nothing written. Throws WorkDirError when the shard file is damaged.
  ShardResult count(std::uint32_t id);

  // Shard id counted and its result written durably.
  ShardResult count_and_record(std::uint32_t id);

  // A result written durably, counted here or by another rank, and told to the progress and
  // to interrupts.
  void record(const ShardResult& result);

  // From now on an interrupt says how many shards are done (done so far, then one more for
  // each this worker records) and that the same command resumes the run.
  void tell_interrupts_where_the_run_stands(std::size_t done);

  const WorkDir& dir() const { return dir_; }
  const std::string& name() const { return name_; }
  const char* backend_name() const { return counter_.backend_name(); }

 private:
  const WorkDir& dir_;
  FrontierCounter counter_;
  std::string name_;
  WorkProgress* progress_;
  std::mutex done_mutex_;
  std::optional<std::size_t> done_;  // shards done, when interrupts are told
};

// "host:pid", the default name of a worker.
std::string default_worker_name();

// Seconds since the Unix epoch.
double unix_time_now();

}  // namespace perftkit
