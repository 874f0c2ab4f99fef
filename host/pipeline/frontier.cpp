#include "pipeline/frontier.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <numeric>

#include "common/parallel_for.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

// A level is expanded in a fixed number of chunks and merged in a fixed number of shards
// (by hash), so that any thread count gives the same nodes in the same order.
constexpr std::size_t CHUNKS = 64;
constexpr int SHARD_BITS = 6;
constexpr std::size_t SHARDS = std::size_t(1) << SHARD_BITS;

// A node met while building, with the hash it merges by; multiplicity 0 once it has been
// added to an identical node met before it.
struct Candidate {
  FrontierNode node;
  std::uint64_t hash;
};

// Hashes the position's bytes (the clocks included, so merged nodes are identical) and the
// root move where nodes under different root moves stay apart.
std::uint64_t candidate_hash(const Position& position, std::uint32_t root_move) {
  std::uint64_t words[sizeof(Position) / 8];
  std::memcpy(words, &position, sizeof(Position));
  std::uint64_t h = 0x9E3779B97F4A7C15ULL * (root_move + 1);
  for (std::uint64_t w : words) h = (h ^ w) * 0xBF58476D1CE4E5B9ULL, h ^= h >> 31;
  return h;
}

// One chunk's candidates in the order they were met, and which of them fall in each shard.
struct Chunk {
  std::vector<Candidate> candidates;
  std::array<std::vector<std::uint32_t>, SHARDS> in_shard;
};

// Collects the candidates of chunks (in parallel), merges identical ones when asked (each
// shard on one thread: a later copy's multiplicity goes to the first copy met, in chunk
// order), and lays out the survivors in the order one thread would have met them.
class FrontierBuilder {
 public:
  FrontierBuilder(bool keep_root_moves, bool merge, std::size_t chunks)
      : keep_root_moves_(keep_root_moves), merge_(merge), chunks_(chunks) {}

  // Adds a node to chunk c; called by one thread at a time per chunk.
  void add(std::size_t c, const Position& position, u128 multiplicity, std::uint32_t root_move) {
    Chunk& chunk = chunks_[c];
    const std::uint64_t hash = merge_ ? candidate_hash(position, keep_root_moves_ ? root_move : 0) : 0;
    if (merge_) chunk.in_shard[hash >> (64 - SHARD_BITS)].push_back(std::uint32_t(chunk.candidates.size()));
    chunk.candidates.push_back({{position, multiplicity, root_move}, hash});
  }

  std::vector<FrontierNode> take(unsigned threads) {
    if (merge_) parallel_for(SHARDS, threads, [&](unsigned, std::size_t shard) { merge_shard(shard); });
    std::vector<std::size_t> begin(chunks_.size() + 1, 0);  // each chunk's first place in the result
    parallel_for(chunks_.size(), threads, [&](unsigned, std::size_t c) { begin[c + 1] = survivors(chunks_[c]); });
    std::partial_sum(begin.begin(), begin.end(), begin.begin());
    std::vector<FrontierNode> nodes(begin.back());
    parallel_for(chunks_.size(), threads, [&](unsigned, std::size_t c) {
      std::size_t at = begin[c];
      for (const Candidate& candidate : chunks_[c].candidates)
        if (candidate.node.multiplicity) nodes[at++] = candidate.node;
      chunks_[c] = Chunk{};
    });
    return nodes;
  }

 private:
  static std::size_t survivors(const Chunk& chunk) {
    std::size_t n = 0;
    for (const Candidate& candidate : chunk.candidates) n += candidate.node.multiplicity != 0;
    return n;
  }

  bool same_node(const FrontierNode& a, const FrontierNode& b) const {
    return (!keep_root_moves_ || a.root_move == b.root_move) &&
           std::memcmp(&a.position, &b.position, sizeof(Position)) == 0;
  }

  // Open addressing over the shard's candidates, visited chunk by chunk in order, so the
  // first copy of each node is the one a single thread would have kept.
  void merge_shard(std::size_t shard) {
    std::size_t members = 0;
    for (const Chunk& chunk : chunks_) members += chunk.in_shard[shard].size();
    if (!members) return;
    constexpr std::uint64_t EMPTY = ~std::uint64_t(0);
    std::vector<std::uint64_t> slots(std::bit_ceil(2 * members), EMPTY);  // chunk << 32 | index
    const std::size_t mask = slots.size() - 1;
    for (std::size_t c = 0; c < chunks_.size(); ++c) {
      for (const std::uint32_t i : chunks_[c].in_shard[shard]) {
        Candidate& candidate = chunks_[c].candidates[i];
        for (std::size_t at = candidate.hash & mask;; at = (at + 1) & mask) {
          if (slots[at] == EMPTY) {
            slots[at] = std::uint64_t(c) << 32 | i;
            break;
          }
          Candidate& first = chunks_[slots[at] >> 32].candidates[slots[at] & 0xFFFFFFFFu];
          if (first.hash == candidate.hash && same_node(first.node, candidate.node)) {
            first.node.multiplicity += candidate.node.multiplicity;
            candidate.node.multiplicity = 0;
            break;
          }
        }
      }
    }
  }

  bool keep_root_moves_, merge_;
  std::vector<Chunk> chunks_;
};

}  // namespace

std::vector<FrontierNode> expand_level(const std::vector<FrontierNode>& level, bool keep_root_moves, bool merge,
                                       unsigned threads) {
  FrontierBuilder next(keep_root_moves, merge, CHUNKS);
  parallel_for(CHUNKS, threads, [&](unsigned, std::size_t c) {
    for (std::size_t i = c * level.size() / CHUNKS; i < (c + 1) * level.size() / CHUNKS; ++i)
      for_each_legal_move(level[i].position, [&](const Position& child, Move) {
        next.add(c, child, level[i].multiplicity, level[i].root_move);
      });
  });
  return next.take(threads);
}

std::vector<FrontierNode> merge_identical(const std::vector<FrontierNode>& nodes, bool keep_root_moves) {
  FrontierBuilder merged(keep_root_moves, true, 1);
  for (const FrontierNode& node : nodes) merged.add(0, node.position, node.multiplicity, node.root_move);
  return merged.take(1);
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
