// A work dir: a perft cut into durable work units on a (shared) filesystem.
//   DIR/manifest               the run (host/workdir/manifest.hpp), written after every shard
//   DIR/shards/NNNNNN.shard    the shards (host/workdir/shard_file.hpp)
//   DIR/results/NNNNNN.result  a finished shard's count (host/workdir/shard_result.hpp)
//   DIR/claims/NNNNNN.claim    a worker counting the shard now (host/workdir/shard_claims.hpp)
// Every file is replaced atomically (host/common/durable_file.hpp), and a shard has one result file,
// so no shard can be counted twice.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/frontier.hpp"
#include "workdir/shard_file.hpp"
#include "workdir/shard_result.hpp"
#include "workdir/manifest.hpp"

namespace perftkit {

// A work dir that is missing, corrupt, or not the run asked for.
struct WorkDirError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ResultState { MISSING, VALID, CORRUPT };

struct ResultCheck {
  ResultState state = ResultState::MISSING;
  ShardResult result;   // when VALID
  std::string problem;  // when CORRUPT: why it cannot be counted
};

class WorkDir {
 public:
  // The run in path, its manifest read and checked. Throws WorkDirError when path holds no
  // manifest or a corrupt one.
  static WorkDir open(const std::string& path);
  // The run in path whose manifest holds text (read or written by the caller). Throws
  // WorkDirError when text is not a valid manifest.
  static WorkDir from_manifest_text(const std::string& path, const std::string& text);

  const std::string& path() const { return path_; }
  const WorkManifest& manifest() const { return manifest_; }
  std::uint64_t run_id() const { return run_id_; }
  std::size_t shard_count() const { return manifest_.shard_count(); }

  std::string shard_path(std::uint32_t id) const;
  std::string result_path(std::uint32_t id) const;
  std::string claim_path(std::uint32_t id) const;
  std::string results_dir() const { return path_ + "/results"; }
  std::string claims_dir() const { return path_ + "/claims"; }

  // What shard id's file must be (its header fields).
  ShardIdentity shard_identity(std::uint32_t id) const;

  // The nodes of shard id. Throws WorkDirError when its file is missing or is not the shard
  // the manifest lists.
  std::vector<FrontierNode> load_shard(std::uint32_t id) const;

  // Whether result is a count of shard id of this run: the right run, shard, shard checksum
  // and position count. Empty when it is, else the reason.
  std::string result_problem(const ShardResult& result, std::uint32_t id) const;

  // Shard id's result file: missing, valid, or corrupt (truncated, edited, another run's).
  ResultCheck check_result(std::uint32_t id) const;

  // Writes shard id's result durably, after checking it (std::invalid_argument if wrong).
  void write_result(const ShardResult& result) const;

  // A shard id's six-digit name.
  static std::string shard_name(std::uint32_t id);

 private:
  WorkDir(std::string path, WorkManifest manifest);
  std::string path_;
  WorkManifest manifest_;
  std::uint64_t run_id_;
};

// The manifest's file in path.
std::string manifest_path(const std::string& work_dir);

}  // namespace perftkit
