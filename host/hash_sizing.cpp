#include "hash_sizing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "frontier.hpp"

namespace perftkit {
namespace {

constexpr double BYTES_PER_ENTRY = 32;  // PerftTable: 2 entries of 32 bytes per bucket
constexpr double HEADROOM = 1;          // the estimate already runs high (clocks split positions)
constexpr std::size_t MIN_BYTES = std::size_t(16) << 20;
constexpr double MAX_BYTES = 1e18;
constexpr int SAMPLED_PLIES = 3;

}  // namespace

std::size_t suggested_hash_bytes(const Position& root, int depth) {
  if (depth < 3) return 0;
  const int deepest_stored = depth - 2;
  std::vector<double> distinct;  // distinct positions at plies 1, 2, ...
  std::vector<FrontierNode> level = expand_frontier(root, 1, false);
  distinct.push_back(double(level.size()));
  while (int(distinct.size()) < std::min(SAMPLED_PLIES, deepest_stored) && !level.empty()) {
    level = expand_level(level, false);
    distinct.push_back(double(level.size()));
  }
  // Extrapolate with the growth of the last sampled ply (positions that end the game have none).
  double entries = 0, at_ply = distinct.back();
  for (double d : distinct) entries += d;
  const double growth = distinct.size() >= 2 && distinct[distinct.size() - 2] > 0
                            ? distinct.back() / distinct[distinct.size() - 2]
                            : distinct.back();
  for (int ply = int(distinct.size()) + 1; ply <= deepest_stored && entries < MAX_BYTES; ++ply) {
    at_ply *= growth;
    entries += at_ply;
  }
  const double bytes = std::min(entries * BYTES_PER_ENTRY * HEADROOM, MAX_BYTES);
  if (bytes <= double(MIN_BYTES)) return MIN_BYTES;
  return std::bit_ceil(static_cast<std::size_t>(bytes));
}

}  // namespace perftkit
