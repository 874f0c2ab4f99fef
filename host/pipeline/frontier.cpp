#include "pipeline/frontier.hpp"

#include <cstring>
#include <unordered_map>

#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

struct FrontierKey {
  Position position;
  std::uint32_t root_move;
  bool operator==(const FrontierKey& other) const {
    return root_move == other.root_move && std::memcmp(&position, &other.position, sizeof(Position)) == 0;
  }
};

// Hashes the position's bytes; the clocks are included, so merged nodes are identical.
struct FrontierKeyHash {
  std::size_t operator()(const FrontierKey& key) const {
    std::uint64_t words[sizeof(Position) / 8];
    std::memcpy(words, &key.position, sizeof(Position));
    std::uint64_t h = 0x9E3779B97F4A7C15ULL * (key.root_move + 1);
    for (std::uint64_t w : words) h = (h ^ w) * 0xBF58476D1CE4E5B9ULL, h ^= h >> 31;
    return std::size_t(h);
  }
};

// Collects nodes, merging identical ones when asked.
class FrontierBuilder {
 public:
  FrontierBuilder(bool keep_root_moves, bool merge, std::size_t expected)
      : keep_root_moves_(keep_root_moves), merge_(merge) {
    if (merge) index_.reserve(expected);
  }
  void add(const Position& position, std::uint64_t multiplicity, std::uint32_t root_move) {
    if (!merge_) {
      nodes_.push_back({position, multiplicity, root_move});
      return;
    }
    const FrontierKey key{position, keep_root_moves_ ? root_move : 0};
    const auto [it, inserted] = index_.try_emplace(key, nodes_.size());
    if (inserted) nodes_.push_back({position, multiplicity, root_move});
    else nodes_[it->second].multiplicity += multiplicity;
  }
  std::vector<FrontierNode> take() { return std::move(nodes_); }

 private:
  bool keep_root_moves_, merge_;
  std::unordered_map<FrontierKey, std::size_t, FrontierKeyHash> index_;
  std::vector<FrontierNode> nodes_;
};

}  // namespace

std::vector<FrontierNode> expand_level(const std::vector<FrontierNode>& level, bool keep_root_moves, bool merge) {
  FrontierBuilder next(keep_root_moves, merge, level.size() * 32);
  for (const FrontierNode& node : level)
    for_each_legal_move(node.position,
                        [&](const Position& child, Move) { next.add(child, node.multiplicity, node.root_move); });
  return next.take();
}

std::vector<FrontierNode> merge_identical(const std::vector<FrontierNode>& nodes, bool keep_root_moves) {
  FrontierBuilder merged(keep_root_moves, true, nodes.size());
  for (const FrontierNode& node : nodes) merged.add(node.position, node.multiplicity, node.root_move);
  return merged.take();
}

std::vector<Move> root_moves(const Position& pos) {
  std::vector<Move> moves;
  for_each_legal_move(pos, [&](const Position&, Move m) { moves.push_back(m); });
  return moves;
}

std::vector<FrontierNode> expand_frontier(const Position& root, int plies, bool keep_root_moves, bool merge) {
  std::vector<FrontierNode> level;
  std::uint32_t move_index = 0;
  for_each_legal_move(root, [&](const Position& child, Move) { level.push_back({child, 1, move_index++}); });
  for (int ply = 1; ply < plies; ++ply) level = expand_level(level, keep_root_moves, merge);
  return level;
}

}  // namespace perftkit
