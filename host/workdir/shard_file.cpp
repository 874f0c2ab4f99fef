#include "workdir/shard_file.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>

#include "common/checksum64.hpp"
#include "perftkit/bitboard.hpp"

namespace perftkit {
namespace {

static_assert(std::endian::native == std::endian::little,
              "shard files store numbers and positions as little-endian memory images");
static_assert(sizeof(Position) + sizeof(std::uint64_t) == SHARD_RECORD_BYTES);

constexpr char MAGIC[8] = {'P', 'K', 'S', 'H', 'A', 'R', 'D', '\0'};
constexpr std::uint32_t SHARD_FORMAT = 1;
constexpr std::size_t HEADER_BYTES = 8 + 4 * 4 + 8 + 8;
constexpr std::size_t CHECKSUM_BYTES = 8;

template <typename T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
T get(std::string_view bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

// A position read back must at least be a board the move generator can walk: one king per
// side, disjoint colours, a side to move and an en-passant square in range.
bool plausible(const Position& pos) {
  return pos.side_to_move <= BLACK && pos.ep_square <= SQ_NONE && (pos.by_color[WHITE] & pos.by_color[BLACK]) == 0 &&
         popcount(pos.kings & pos.by_color[WHITE]) == 1 && popcount(pos.kings & pos.by_color[BLACK]) == 1;
}

}  // namespace

std::string encode_shard(const ShardIdentity& identity, std::span<const FrontierNode> nodes) {
  std::string out;
  out.reserve(HEADER_BYTES + nodes.size() * SHARD_RECORD_BYTES + CHECKSUM_BYTES);
  out.append(MAGIC, sizeof MAGIC);
  put(out, SHARD_FORMAT);
  put(out, identity.id);
  put(out, std::uint32_t(identity.remaining_depth));
  put(out, std::uint32_t(SHARD_RECORD_BYTES));
  put(out, identity.parameters_key);
  put(out, std::uint64_t(nodes.size()));
  for (const FrontierNode& node : nodes) {
    put(out, node.position);
    // Records keep 64 bits: a split this deep in a tree this narrow is refused, not wrapped.
    if (node.multiplicity > MAX_SHARD_MULTIPLICITY)
      throw std::overflow_error("work dir: a shard position is reached by more than 2^64 paths; split at fewer plies");
    put(out, std::uint64_t(node.multiplicity));
  }
  put(out, checksum64(out));
  return out;
}

std::uint64_t shard_checksum(std::string_view bytes) {
  return bytes.size() < CHECKSUM_BYTES ? 0 : get<std::uint64_t>(bytes, bytes.size() - CHECKSUM_BYTES);
}

std::optional<std::vector<FrontierNode>> decode_shard(std::string_view bytes, const ShardIdentity& expected,
                                                      std::string& error) {
  const auto fail = [&](const std::string& why) {
    error = why;
    return std::nullopt;
  };
  if (bytes.size() < HEADER_BYTES + CHECKSUM_BYTES)
    return fail("truncated (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), MAGIC, sizeof MAGIC) != 0) return fail("not a perftkit shard file");
  if (get<std::uint32_t>(bytes, 8) != SHARD_FORMAT)
    return fail("shard format " + std::to_string(get<std::uint32_t>(bytes, 8)));
  const std::uint64_t count = get<std::uint64_t>(bytes, 32);
  if (get<std::uint32_t>(bytes, 20) != SHARD_RECORD_BYTES || count > bytes.size() / SHARD_RECORD_BYTES ||
      bytes.size() != HEADER_BYTES + count * SHARD_RECORD_BYTES + CHECKSUM_BYTES)
    return fail("truncated or malformed (" + std::to_string(bytes.size()) + " bytes)");
  if (checksum64(bytes.substr(0, bytes.size() - CHECKSUM_BYTES)) != shard_checksum(bytes))
    return fail("checksum mismatch");
  if (get<std::uint32_t>(bytes, 12) != expected.id || get<std::uint64_t>(bytes, 24) != expected.parameters_key ||
      get<std::uint32_t>(bytes, 16) != std::uint32_t(expected.remaining_depth))
    return fail("belongs to another shard or run");

  std::vector<FrontierNode> nodes(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = HEADER_BYTES + i * SHARD_RECORD_BYTES;
    nodes[i] = {get<Position>(bytes, at), u128(get<std::uint64_t>(bytes, at + sizeof(Position))), 0};
    if (!plausible(nodes[i].position) || nodes[i].multiplicity == 0)
      return fail("record " + std::to_string(i) + " is not a position");
  }
  return nodes;
}

}  // namespace perftkit
