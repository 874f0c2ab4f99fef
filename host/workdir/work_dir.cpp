#include "workdir/work_dir.hpp"

#include <cstdio>

#include "common/checksum64.hpp"
#include "common/durable_file.hpp"

namespace perftkit {

std::string manifest_path(const std::string& work_dir) { return work_dir + "/manifest"; }

std::string WorkDir::shard_name(std::uint32_t id) {
  char name[16];
  std::snprintf(name, sizeof name, "%06u", static_cast<unsigned>(id));
  return name;
}

WorkDir::WorkDir(std::string path, WorkManifest manifest)
    : path_(std::move(path)), manifest_(std::move(manifest)), run_id_(manifest_run_id(manifest_)) {}

WorkDir WorkDir::open(const std::string& path) {
  const std::optional<std::string> text = read_file(manifest_path(path));
  if (!text) throw WorkDirError(path + " holds no perftkit run (no manifest)");
  return from_manifest_text(path, *text);
}

WorkDir WorkDir::from_manifest_text(const std::string& path, const std::string& text) {
  std::string error;
  std::optional<WorkManifest> manifest = decode_manifest(text, error);
  if (!manifest) throw WorkDirError(manifest_path(path) + ": " + error);
  return WorkDir(path, std::move(*manifest));
}

std::string WorkDir::shard_path(std::uint32_t id) const { return path_ + "/shards/" + shard_name(id) + ".shard"; }
std::string WorkDir::result_path(std::uint32_t id) const { return results_dir() + "/" + shard_name(id) + ".result"; }
std::string WorkDir::claim_path(std::uint32_t id) const { return claims_dir() + "/" + shard_name(id) + ".claim"; }

ShardIdentity WorkDir::shard_identity(std::uint32_t id) const {
  return {id, manifest_.parameters_key(), manifest_.remaining_depth()};
}

std::vector<FrontierNode> WorkDir::load_shard(std::uint32_t id) const {
  if (id >= shard_count()) throw WorkDirError("shard " + std::to_string(id) + " is not in this run");
  const std::string path = shard_path(id);
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw WorkDirError(path + " is missing (run the perft command with --work-dir again to rewrite it)");
  std::string error;
  std::optional<std::vector<FrontierNode>> nodes = decode_shard(*bytes, shard_identity(id), error);
  if (nodes && shard_checksum(*bytes) != manifest_.shard_checksums[id]) error = "its checksum is not the manifest's";
  if (!nodes || !error.empty())
    throw WorkDirError(path + ": " + error + " (run the perft command with --work-dir again to rewrite it)");
  return std::move(*nodes);
}

std::string WorkDir::result_problem(const ShardResult& r, std::uint32_t id) const {
  if (r.run_id != run_id_) return "it belongs to another run (" + to_hex64(r.run_id) + ")";
  if (r.shard != id) return "it is the result of shard " + std::to_string(r.shard);
  if (id >= shard_count()) return "shard " + std::to_string(id) + " is not in this run";
  if (r.shard_checksum != manifest_.shard_checksums[id]) return "it counted another shard file";
  if (r.positions != manifest_.shard_positions[id]) return "its position count is not the shard's";
  if (manifest_.stats && !r.stats) return "it has no statistics";
  return {};
}

ResultCheck WorkDir::check_result(std::uint32_t id) const {
  ResultCheck check;
  const std::optional<std::string> text = read_file(result_path(id));
  if (!text) return check;
  check.state = ResultState::CORRUPT;
  std::optional<ShardResult> result = decode_result(*text, check.problem);
  if (!result) return check;
  check.problem = result_problem(*result, id);
  if (!check.problem.empty()) return check;
  check.state = ResultState::VALID;
  check.result = std::move(*result);
  return check;
}

void WorkDir::write_result(const ShardResult& result) const {
  const std::string problem = result_problem(result, result.shard);
  if (!problem.empty()) throw std::invalid_argument("shard " + std::to_string(result.shard) + " result: " + problem);
  write_file_durably(result_path(result.shard), encode_result(result));
}

}  // namespace perftkit
