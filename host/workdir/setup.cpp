#include "workdir/setup.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "common/durable_file.hpp"
#include "notation/fen.hpp"

namespace perftkit {
namespace {

// A new run goes into a new or empty directory, or one an interrupted start left behind.
void check_free_for_a_run(const std::string& path) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "shards" && name != "results" && name != "claims" && !is_temporary_file_name(name))
      throw WorkDirError(path + " is not empty and holds no perftkit run (no manifest); use a new or empty directory");
  }
}

void make_layout(const std::string& path) {
  for (const char* sub : {"", "/shards", "/results", "/claims"}) std::filesystem::create_directories(path + sub);
}

std::span<const FrontierNode> shard_nodes(const WorkSplit& split, std::size_t id) {
  return std::span<const FrontierNode>(split.frontier)
      .subspan(split.shard_begin[id], split.shard_begin[id + 1] - split.shard_begin[id]);
}

WorkDir create_run(const std::string& path, const SplitRequest& request, std::FILE* log) {
  const WorkSplit split = split_into_shards(request);
  WorkManifest manifest;
  manifest.fen = to_fen(request.root);
  manifest.depth = request.depth;
  manifest.stats = request.stats;
  manifest.split_plies = split.split_plies;
  manifest.frontier_positions = split.frontier.size();
  manifest.frontier_paths = split.paths;
  manifest.shard_checksums.assign(split.shard_count(), 0);  // the key below depends on the count only
  for (std::size_t id = 0; id < split.shard_count(); ++id)
    manifest.shard_positions.push_back(shard_nodes(split, id).size());

  check_free_for_a_run(path);
  make_layout(path);
  if (log)
    std::fprintf(log, "work dir %s: writing %zu shards of the %zu positions %d plies deep\n", path.c_str(),
                 split.shard_count(), split.frontier.size(), split.split_plies);
  const std::uint64_t key = manifest.parameters_key();
  for (std::size_t id = 0; id < split.shard_count(); ++id) {
    const ShardIdentity identity{std::uint32_t(id), key, manifest.remaining_depth()};
    const std::string bytes = encode_shard(identity, shard_nodes(split, id));
    manifest.shard_checksums[id] = shard_checksum(bytes);
    write_file_durably(path + "/shards/" + WorkDir::shard_name(std::uint32_t(id)) + ".shard", bytes);
  }
  const std::string manifest_text = encode_manifest(manifest);
  write_file_durably(manifest_path(path), manifest_text);
  return WorkDir::from_manifest_text(path, manifest_text);  // as a later open() reads it
}

// Refuses to go on with a run that is not the one asked for.
void check_same_run(const WorkDir& dir, const SplitRequest& request) {
  const WorkManifest& m = dir.manifest();
  const std::string fen = to_fen(request.root);
  const auto refuse = [&](const std::string& what) {
    throw WorkDirError(dir.path() + " holds another run (" + what + "): perft " + m.fen + " to depth " +
                       std::to_string(m.depth) + " in " + std::to_string(m.shard_count()) + " shards split at ply " +
                       std::to_string(m.split_plies) + "; use a new --work-dir for this one");
  };
  if (m.fen != fen) refuse("its root is not " + fen);
  if (m.depth != request.depth) refuse("its depth is not " + std::to_string(request.depth));
  if (m.stats != request.stats) refuse(m.stats ? "it counts statistics (--stats)" : "it counts nodes, not --stats");
  if (request.split_plies && m.split_plies != request.split_plies)
    refuse("its split depth is not " + std::to_string(request.split_plies));
  if (request.shards && m.shard_count() != shard_count_for(request.shards, m.frontier_positions))
    refuse("its shard count is not " + std::to_string(request.shards));
}

// Shards whose file is missing or not the one the manifest lists.
std::vector<std::size_t> damaged_shards(const WorkDir& dir) {
  std::vector<std::size_t> damaged;
  for (std::size_t id = 0; id < dir.shard_count(); ++id) {
    try {
      dir.load_shard(std::uint32_t(id));
    } catch (const WorkDirError&) {
      damaged.push_back(id);
    }
  }
  return damaged;
}

// Writes the damaged shards again from the same split; they must come out as the manifest
// lists them (the split is deterministic), else the run cannot be repaired here.
void repair_shards(const WorkDir& dir, const SplitRequest& request, const std::vector<std::size_t>& damaged,
                   std::FILE* log) {
  const WorkManifest& m = dir.manifest();
  SplitRequest same = request;
  same.split_plies = m.split_plies;
  same.shards = m.shard_count();
  const WorkSplit split = split_into_shards(same);
  if (split.shard_count() != m.shard_count())
    throw WorkDirError(dir.path() + ": this perftkit splits the run differently; its shards cannot be rewritten");
  for (std::size_t id : damaged) {
    const std::string bytes = encode_shard(dir.shard_identity(std::uint32_t(id)), shard_nodes(split, id));
    if (shard_checksum(bytes) != m.shard_checksums[id])
      throw WorkDirError(dir.path() + ": shard " + std::to_string(id) +
                         " comes out differently from this perftkit; it cannot be rewritten");
    if (log)
      std::fprintf(log, "work dir %s: shard %zu was missing or corrupt; written again\n", dir.path().c_str(), id);
    write_file_durably(dir.shard_path(std::uint32_t(id)), bytes);
  }
}

}  // namespace

WorkDir prepare_work_dir(const std::string& path, const SplitRequest& request, std::FILE* log) {
  // The manifest is read once a run: here.
  const std::optional<std::string> manifest_text = read_file(manifest_path(path));
  if (!manifest_text) return create_run(path, request, log);
  WorkDir dir = WorkDir::from_manifest_text(path, *manifest_text);
  check_same_run(dir, request);
  make_layout(path);
  const std::vector<std::size_t> damaged = damaged_shards(dir);
  if (!damaged.empty()) repair_shards(dir, request, damaged, log);
  return dir;
}

}  // namespace perftkit
