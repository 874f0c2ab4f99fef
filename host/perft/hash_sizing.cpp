#include "perft/hash_sizing.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "perftkit/position_key.hpp"

#include "pipeline/frontier.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit {
namespace {

// The tables' layout (SubtreeTableLayout): two-ply subtrees take a sixth of a 64-byte
// bucket (a slot each) in TWO_PLY_PERCENT of the table, deeper ones a quarter in the rest,
// kept at three quarters load (two subtrees in three are in a bucket with a free slot). No more: a lossy table a little
// too small loses a few subtrees, while every unused megabyte is a page fault up front, and on a virtual machine fresh
// memory costs seconds of system time a gigabyte (results/hashed-perft-vm-2026-12-03-right-sized.json: 21 s for perft
// 9's 4 GB). The pipeline's tables (host and device) share the layout.
constexpr double TWO_PLY_BYTES = 64.0 / SubtreeTableLayout::TWO_PLY_SLOTS,
                 LOADED_DEEP_BYTES = 64.0 / SubtreeTableLayout::DEEP_SLOTS / 0.75;
constexpr double TWO_PLY_SHARE = double(SubtreeTableLayout::TWO_PLY_PERCENT) / 100;
// A statistics table (pipeline/stats_subtree_table.hpp) keeps every subtree in a narrow
// entry, two to a bucket, unless its counters are large. As in the node table, the two-ply
// subtrees are counted at full load (a bucket keeps the last two as deep: at start perft 8 a
// table of 384 MB hits as often as one of 512 MB, 53.4% of probes), the deeper ones at three
// quarters.
constexpr double STATS_ENTRY_BYTES = 64.0 / 2, LOADED_STATS_ENTRY_BYTES = STATS_ENTRY_BYTES / 0.75;
// Distinct positions grow more slowly ply after ply, as transpositions multiply: from the
// start position by 13.4 at ply 4, 11.4 at ply 6, 10.2 at ply 8 and 9.3 at ply 10, 6-7%
// less a ply. An extrapolated ply grows by the ply before's growth times this.
constexpr double GROWTH_DECAY = 0.93;
constexpr std::size_t STEP = std::size_t(64) << 20;  // sizes are whole multiples of this
constexpr std::size_t MIN_BYTES = std::size_t(16) << 20;
constexpr double MAX_BYTES = 1e18;
constexpr int SAMPLED_PLIES = 4;
// Plies past SAMPLED_PLIES are counted, not extrapolated, while a ply holds at most this
// many positions (counting one costs about a millisecond per thousand).
constexpr std::size_t SMALL_PLY_POSITIONS = 1 << 15;
// No ply is counted from a level of more positions than this, sampled or not: its ~40
// children each would cost seconds and hundreds of MB (Kiwipete's ply 4, 4.1 M positions:
// about 1 s and 400 MB, a fifth of its perft 6 --stats). It is extrapolated instead.
constexpr std::size_t MAX_EXPANDED_POSITIONS = 1 << 16;

// Distinct positions of a level as the table sees them: the frontier keeps positions with
// different clocks apart, the table's keys do not.
double distinct_trees(const std::vector<FrontierNode>& level) {
  const KeySet keys(0);
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(level.size());
  for (const FrontierNode& node : level) seen.insert(position_key(node.position, keys).lo);
  return double(seen.size());
}

// Subtrees a perft stores: the two-ply ones at its deepest stored ply, and the deeper ones.
struct StoredSubtrees {
  double two_ply = 0, deeper = 0;
};

// The distinct positions at plies 1..4 are counted, and further plies while a ply holds few;
// beyond that, extrapolated from the growth of the last counted ply (positions that end the
// game have none), decaying: from the start position the estimate runs 10-17% high.
StoredSubtrees estimate_stored_subtrees(const Position& root, int deepest_stored) {
  std::vector<double> distinct;  // distinct positions at plies 1, 2, ...
  std::vector<FrontierNode> level = expand_frontier(root, 1, false);
  distinct.push_back(distinct_trees(level));
  const auto worth_counting = [&] {
    return (int(distinct.size()) < SAMPLED_PLIES || level.size() <= SMALL_PLY_POSITIONS) &&
           (distinct.size() < 2 || level.size() <= MAX_EXPANDED_POSITIONS);
  };
  while (int(distinct.size()) < deepest_stored && !level.empty() && worth_counting()) {
    level = expand_level(level, false);
    distinct.push_back(distinct_trees(level));
  }
  double all = 0, at_ply = distinct.back();
  for (double d : distinct) all += d;
  double growth = distinct.size() >= 2 && distinct[distinct.size() - 2] > 0
                      ? distinct.back() / distinct[distinct.size() - 2]
                      : distinct.back();
  for (int ply = int(distinct.size()) + 1; ply <= deepest_stored && all < MAX_BYTES; ++ply) {
    growth *= GROWTH_DECAY;
    at_ply *= growth;
    all += at_ply;
  }
  return {at_ply, all - at_ply};
}

// Each part big enough for its subtrees, the two-ply part in whole groups.
double table_bytes(const StoredSubtrees& s) {
  const double group = double(SubtreeTableLayout::GROUP_BYTES);
  const double two_ply = std::ceil(s.two_ply * TWO_PLY_BYTES / group) * group;
  return std::max(s.deeper * LOADED_DEEP_BYTES / (1 - TWO_PLY_SHARE), two_ply / TWO_PLY_SHARE);
}

// bytes rounded up to a whole step, at least MIN_BYTES.
std::size_t whole_steps(double bytes) {
  bytes = std::min(bytes, MAX_BYTES);
  if (bytes <= double(MIN_BYTES)) return MIN_BYTES;
  return (static_cast<std::size_t>(bytes) + STEP - 1) / STEP * STEP;
}

}  // namespace

std::size_t suggested_hash_bytes(const Position& root, int depth) {
  if (depth < 3) return 0;
  return whole_steps(table_bytes(estimate_stored_subtrees(root, depth - 2)));
}

std::size_t suggested_stats_hash_bytes(const Position& root, int depth) {
  if (depth < 3) return 0;
  const StoredSubtrees stored = estimate_stored_subtrees(root, depth - 2);
  return whole_steps(stored.two_ply * STATS_ENTRY_BYTES + stored.deeper * LOADED_STATS_ENTRY_BYTES);
}

}  // namespace perftkit
