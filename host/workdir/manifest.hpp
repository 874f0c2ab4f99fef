// The manifest of a work dir: what the run counts (root, depth), how it was split into shards,
// and each shard's size and checksum. Written once, after every shard file; its checksum is
// the run's id, which every shard result carries, so results of two runs never mix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/uint128.hpp"

namespace perftkit {

inline constexpr int WORK_DIR_FORMAT = 1;

struct WorkManifest {
  std::string fen;                             // the root (after any --moves), as to_fen writes it
  int depth = 0;                               // perft depth from the root
  int split_plies = 0;                         // plies from the root to the shards' positions
  std::uint64_t frontier_positions = 0;        // distinct positions at the split, over all shards
  u128 frontier_paths = 0;                     // move sequences reaching them: perft(split_plies)
  std::vector<std::uint64_t> shard_positions;  // positions in each shard
  std::vector<std::uint64_t> shard_checksums;  // each shard file's checksum
  bool stats = false;                          // every leaf counter (perft --stats), not nodes alone

  std::size_t shard_count() const { return shard_checksums.size(); }
  int remaining_depth() const { return depth - split_plies; }

  // Fingerprint of the run's parameters (root, depth, split, shard count, statistics), written into each
  // shard file's header before the manifest (and its id) exists.
  std::uint64_t parameters_key() const;
};

// The manifest as a sealed record (host/workdir/sealed_record.hpp).
std::string encode_manifest(const WorkManifest& manifest);

// The run id: the checksum the manifest is sealed with.
std::uint64_t manifest_run_id(const WorkManifest& manifest);

// A manifest read back; nullopt with the reason when it is corrupt, of another format or
// inconsistent (list lengths, position total).
std::optional<WorkManifest> decode_manifest(std::string_view text, std::string& error);

}  // namespace perftkit
