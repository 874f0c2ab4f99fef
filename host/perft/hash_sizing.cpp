#include "perft/hash_sizing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "perftkit/position_key.hpp"

#include "pipeline/frontier.hpp"

namespace perftkit {
namespace {

// PerftTable's layout: two-ply subtrees take 16 bytes, deeper ones 32 bytes (two to a
// bucket, so kept at half load) in a power of two of at most a quarter of the table.
constexpr double TWO_PLY_BYTES = 16, DEEP_BYTES = 2 * 32;
constexpr double DEEP_SHARE = 4;
constexpr std::size_t STEP = std::size_t(64) << 20;  // sizes are whole multiples of this
constexpr std::size_t MIN_BYTES = std::size_t(16) << 20;
constexpr double MAX_BYTES = 1e18;
constexpr int SAMPLED_PLIES = 4;
// Plies past SAMPLED_PLIES are counted, not extrapolated, while a ply holds at most this
// many positions (counting one costs about a millisecond per thousand).
constexpr std::size_t SMALL_PLY_POSITIONS = 1 << 15;

// Distinct positions of a level as the table sees them: the frontier keeps positions with
// different clocks apart, the table's keys do not.
double distinct_trees(const std::vector<FrontierNode>& level) {
  const KeySet keys(0);
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(level.size());
  for (const FrontierNode& node : level) seen.insert(position_key(node.position, keys).lo);
  return double(seen.size());
}

}  // namespace

std::size_t suggested_hash_bytes(const Position& root, int depth) {
  if (depth < 3) return 0;
  const int deepest_stored = depth - 2;
  std::vector<double> distinct;  // distinct positions at plies 1, 2, ...
  std::vector<FrontierNode> level = expand_frontier(root, 1, false);
  distinct.push_back(distinct_trees(level));
  const auto worth_counting = [&] {
    return int(distinct.size()) < SAMPLED_PLIES || level.size() <= SMALL_PLY_POSITIONS;
  };
  while (int(distinct.size()) < deepest_stored && !level.empty() && worth_counting()) {
    level = expand_level(level, false);
    distinct.push_back(distinct_trees(level));
  }
  // Extrapolate with the growth of the last sampled ply (positions that end the game have none);
  // the growth shrinks a little with every ply, so the estimate runs high.
  double deep_entries = 0, at_ply = distinct.back();
  for (double d : distinct) deep_entries += d;
  const double growth = distinct.size() >= 2 && distinct[distinct.size() - 2] > 0
                            ? distinct.back() / distinct[distinct.size() - 2]
                            : distinct.back();
  for (int ply = int(distinct.size()) + 1; ply <= deepest_stored && deep_entries < MAX_BYTES; ++ply) {
    at_ply *= growth;
    deep_entries += at_ply;
  }
  // The deepest stored ply holds the two-ply subtrees, the plies above it the deeper ones.
  const double two_ply_entries = at_ply;
  deep_entries -= two_ply_entries;
  const double deep = double(std::bit_ceil(static_cast<std::size_t>(std::min(deep_entries * DEEP_BYTES, MAX_BYTES))));
  const double bytes = std::min(std::max(deep * DEEP_SHARE, deep + two_ply_entries * TWO_PLY_BYTES), MAX_BYTES);
  if (bytes <= double(MIN_BYTES)) return MIN_BYTES;
  return (static_cast<std::size_t>(bytes) + STEP - 1) / STEP * STEP;
}

}  // namespace perftkit
