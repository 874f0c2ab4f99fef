// A shard: one durable work unit of a work dir, stored as a binary file of distinct frontier
// positions with their multiplicities. Layout (little-endian):
//   "PKSHARD\0"  u32 format  u32 shard id  u32 remaining depth  u32 record bytes (80)
//   u64 run parameters key  u64 record count
//   records: Position (72 bytes, as in memory) + u64 multiplicity
//   u64 checksum64 of every byte before it: the shard's checksum, listed in the manifest
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/frontier.hpp"

namespace perftkit {

inline constexpr std::size_t SHARD_RECORD_BYTES = 80;
// A record keeps 64 bits of a node's multiplicity: encode_shard refuses more.
inline constexpr u128 MAX_SHARD_MULTIPLICITY = ~std::uint64_t(0);

// What a shard file must hold to be the shard a manifest expects.
struct ShardIdentity {
  std::uint32_t id;
  std::uint64_t parameters_key;  // WorkManifest::parameters_key()
  int remaining_depth;
};

// The file's bytes for nodes (their root_move is not stored).
std::string encode_shard(const ShardIdentity& identity, std::span<const FrontierNode> nodes);

// The checksum of an encoded shard (its last eight bytes); 0 when it is too short to have one.
std::uint64_t shard_checksum(std::string_view bytes);

// The nodes of a shard file (root_move 0), when it is complete, its checksum matches and it
// is the shard `expected` names; otherwise nullopt and error says why.
std::optional<std::vector<FrontierNode>> decode_shard(std::string_view bytes, const ShardIdentity& expected,
                                                      std::string& error);

}  // namespace perftkit
