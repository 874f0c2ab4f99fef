#include "workdir/split.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "workdir/shard_file.hpp"

namespace perftkit {

std::size_t shard_count_for(std::size_t requested, std::size_t positions) {
  return std::min(requested ? requested : DEFAULT_SHARDS, positions);
}

namespace {

// Perft counts do not depend on the half-move clock, so shards hold their positions with the
// clock at 0 and positions that differ only in it are merged: at ply 5 of the start position
// that leaves 822,518 positions of 1,424,202. Statistics count leaves whose clock reaches 100
// (and 150): a clock that cannot reach 100 within the `remaining` plies below is set to 0,
// one that can is kept, as the frontier's merge keeps it (stats_clock_horizon).
std::vector<FrontierNode> without_clocks(std::vector<FrontierNode> nodes, bool stats, int remaining) {
  for (FrontierNode& node : nodes)
    if (!stats || node.position.halfmove_clock + remaining < 100) node.position.halfmove_clock = 0;
  return merge_identical(nodes, false);
}

}  // namespace

WorkSplit split_into_shards(const SplitRequest& request) {
  if (request.depth < 2) throw std::invalid_argument("a work dir needs --depth 2 or more");
  if (request.split_plies != 0 && (request.split_plies < 1 || request.split_plies >= request.depth))
    throw std::invalid_argument("--split-depth must be between 1 and depth - 1 (" + std::to_string(request.depth - 1) +
                                ")");
  if (request.shards > MAX_SHARDS) throw std::invalid_argument("--shards is at most " + std::to_string(MAX_SHARDS));
  const std::size_t wanted = request.shards ? request.shards : DEFAULT_SHARDS;

  WorkSplit split;
  split.split_plies = 1;
  split.frontier = without_clocks(expand_frontier(request.root, 1, false), request.stats, request.depth - 1);
  const auto deep_enough = [&] {
    if (request.split_plies) return split.split_plies == request.split_plies;
    return split.frontier.size() >= wanted * AUTO_SPLIT_POSITIONS_PER_SHARD || split.split_plies == request.depth - 1;
  };
  while (!deep_enough() && !split.frontier.empty()) {
    std::vector<FrontierNode> next =
        without_clocks(expand_level(split.frontier, false), request.stats, request.depth - split.split_plies - 1);
    // A shard record keeps 64 bits of multiplicity: a split of its own choosing stops above
    // the ply where one position has more paths (a narrow, deep tree: bare kings past ply 25).
    if (!request.split_plies && std::any_of(next.begin(), next.end(), [](const FrontierNode& node) {
          return node.multiplicity > MAX_SHARD_MULTIPLICITY;
        }))
      break;
    split.frontier = std::move(next);
    ++split.split_plies;
  }
  if (request.split_plies) split.split_plies = request.split_plies;  // a frontier that died out early stays empty

  for (FrontierNode& node : split.frontier) {
    node.root_move = 0;
    split.paths += node.multiplicity;
  }
  const std::size_t positions = split.frontier.size();
  const std::size_t shards = shard_count_for(wanted, positions);
  for (std::size_t i = 0; i <= shards; ++i) split.shard_begin.push_back(shards ? i * positions / shards : 0);
  if (shards == 0) split.shard_begin.clear();
  return split;
}

}  // namespace perftkit
