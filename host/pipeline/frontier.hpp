// The frontier: the positions a few plies below the root, merged where identical, each
// with its multiplicity (how many move sequences reach it) and the root move it came from.
#pragma once

#include <cstdint>
#include <vector>

#include "common/uint128.hpp"
#include "perftkit/position.hpp"

namespace perftkit {

struct FrontierNode {
  Position position;
  // Number of paths from the root that reach this node: 128 bits, as many as a perft total
  // (a deep tree of few positions, bare kings at ply 30, has more than 2^64 paths to one).
  u128 multiplicity;
  std::uint32_t root_move;  // index into root_moves() of the first move on those paths
};

// Legal moves of pos in a fixed order (the index space of FrontierNode::root_move).
std::vector<Move> root_moves(const Position& pos);

// All positions `plies` plies below root (plies >= 1), identical ones merged unless
// merge is false. With keep_root_moves, nodes under different root moves stay apart
// (needed for divide).
std::vector<FrontierNode> expand_frontier(const Position& root, int plies, bool keep_root_moves, bool merge = true);

// The next ply below level, merged the same way, in order of first occurrence (children of
// level[0] first), built on up to `threads` threads: the same nodes in the same order for any
// thread count.
std::vector<FrontierNode> expand_level(const std::vector<FrontierNode>& level, bool keep_root_moves, bool merge = true,
                                       unsigned threads = 1);

// nodes with identical ones merged (multiplicities added), in order of first occurrence.
std::vector<FrontierNode> merge_identical(const std::vector<FrontierNode>& nodes, bool keep_root_moves);

}  // namespace perftkit
