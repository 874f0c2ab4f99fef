// Dynamic claiming of shards by independent workers sharing a work dir (job arrays, several
// machines, no MPI): a claim is a file created with O_CREAT | O_EXCL, naming its holder's
// host and process; the holder refreshes its modification time as a heartbeat. A claim is
// stale, and may be taken over, when its holder is a dead process on this host or its
// heartbeat is older than the timeout. A race on a stale claim can only make two workers
// count the same shard; a shard has one result file, so it is still counted once.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "workdir/work_dir.hpp"

namespace perftkit {

inline constexpr double DEFAULT_CLAIM_TIMEOUT_SECONDS = 600;

struct ClaimInfo {
  std::string host;
  long pid = 0;
  double age_seconds = 0;  // since the last heartbeat
};

// What a claim file says, if there is one (an unreadable one reads as host "?").
std::optional<ClaimInfo> read_claim(const WorkDir& dir, std::uint32_t id);

// Whether a claim's holder is gone: a dead process on this host, or no heartbeat for
// timeout_seconds.
bool claim_is_stale(const ClaimInfo& claim, double timeout_seconds);

// This host's name, for claims and for naming workers.
std::string this_host_name();

class ShardClaims {
 public:
  // Claims in dir's claims/ folder; a heartbeat thread refreshes held claims every quarter
  // of timeout_seconds.
  ShardClaims(const WorkDir& dir, double timeout_seconds);
  ~ShardClaims();  // releases every claim still held
  ShardClaims(const ShardClaims&) = delete;
  ShardClaims& operator=(const ShardClaims&) = delete;

  // True when this process now holds shard id: it created the claim, or replaced a stale one.
  bool try_claim(std::uint32_t id);

  // Gives shard id up (after its result is written, or on failure).
  void release(std::uint32_t id);

  // Removes a stale claim on shard id (one a killed worker left on a shard it had finished).
  void remove_if_stale(std::uint32_t id);

 private:
  void heartbeat_loop();
  // Moves the claim file on id aside and deletes it, if it is still there; of two workers
  // racing for a stale claim, one rename wins.
  void discard(std::uint32_t id);

  const WorkDir& dir_;
  double timeout_seconds_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::set<std::uint32_t> held_;
  std::thread heartbeat_;
};

}  // namespace perftkit
