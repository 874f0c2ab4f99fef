// Node counts of the six standard positions (../shared/data/perft-statistics.md, CPW).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "pipeline/frontier.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "support/standard_positions.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

struct KnownCount {
  const char* name;
  const char* fen;
  int depth;
  u128 nodes;
};

// Depths chosen so that the whole table runs in well under a minute on 2 cores.
const KnownCount STANDARD_POSITIONS[] = {
    {"Start_D1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, 20},
    {"Start_D4", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281},
    {"Start_D6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324},
    {"Kiwipete_D1", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 1, 48},
    {"Kiwipete_D3", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 3, 97862},
    {"Kiwipete_D5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 5, 193690690},
    {"Position3_D1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 1, 14},
    {"Position3_D5", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, 674624},
    {"Position3_D7", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 7, 178633661},
    {"Position4_D1", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 1, 6},
    {"Position4_D4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
    {"Position4_D6", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033},
    {"Position4Mirrored_D5", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5, 15833292},
    {"Position5_D1", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 1, 44},
    {"Position5_D3", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
    {"Position5_D5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194},
    {"Position6_D1", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 1, 46},
    {"Position6_D3", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890},
    {"Position6_D5", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164075551},
    {"OldPosition5_D3", "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6", 3, 53392},
};

class StandardPositions : public ::testing::TestWithParam<KnownCount> {};

TEST_P(StandardPositions, CpuBackendMatchesPublishedCount) {
  const KnownCount& c = GetParam();
  const FenResult parsed = parse_fen(c.fen);
  ASSERT_TRUE(parsed) << parsed.error;
  PerftRequest req;
  req.root = parsed->position;
  req.depth = c.depth;
  req.backend = Backend::CPU;
  EXPECT_EQ(to_string_u128(run_perft(req).nodes), to_string_u128(c.nodes));
}

INSTANTIATE_TEST_SUITE_P(Perft, StandardPositions, ::testing::ValuesIn(STANDARD_POSITIONS),
                         [](const auto& param_info) { return std::string(param_info.param.name) + "_cpu"; });

Position start_position() { return parse_fen("startpos")->position; }

TEST(Perft, DepthZeroIsOneNode) {
  PerftRequest req;
  req.root = start_position();
  req.depth = 0;
  req.backend = Backend::CPU;
  EXPECT_EQ(run_perft(req).nodes, u128(1));
  EXPECT_EQ(perft(start_position(), 0), 1u);
}

// More moves than the host's child buffer holds: the buffer must be counted and reused.
TEST(Perft, MoreLegalMovesThanTheChildBufferHolds) {
  const Position pos = parse_fen(test_positions::MANY_MOVES)->position;
  EXPECT_GT(perft(pos, 1), std::uint64_t(MAX_LEGAL_MOVES));
  EXPECT_EQ(perft(pos, 1), 263u);
  EXPECT_EQ(perft(pos, 2), 1419u);
  EXPECT_EQ(perft(pos, 3), 345103u);
}

// A node's children counted together (TwoPlyBatch): 252 grandchildren of the first stay in
// the buffer of 512 while the 263 of the second overflow it, so the second's first ones are
// counted early, apart. Each child still gets its own two-ply count (the first's from every
// instruction-set level's unbatched perft; the second's MANY_MOVES count above), once.
TEST(Perft, TwoPlyBatchKeepsEachChildsCountWhenOneOverflowsTheBuffer) {
  const Position fewer = parse_fen("kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQ2Q w - - 0 1")->position;
  const Position many = parse_fen(test_positions::MANY_MOVES)->position;
  ASSERT_EQ(perft(fewer, 1) + perft(many, 1), 252u + 263u);
  const auto batch = std::make_unique<TwoPlyBatch<BLACK>>();
  std::map<int, std::vector<std::uint64_t>> counted;
  const auto done = [&](int child, std::uint64_t leaves) { counted[child].push_back(leaves); };
  batch->add(fewer, 1, done);
  batch->add(many, 2, done);
  batch->flush(done);
  EXPECT_EQ(counted, (std::map<int, std::vector<std::uint64_t>>{{1, {1361}}, {2, {1419}}}));
  // Depth 3 batches the children of the root: the total every level counted child by child
  // before batching.
  EXPECT_EQ(perft(fewer, 3), 319267u);
}

TEST(Perft, DivideSumsToTotalAndListsEveryRootMove) {
  const Position kiwipete = parse_fen(test_positions::KIWIPETE)->position;
  PerftRequest req;
  req.root = kiwipete;
  req.depth = 3;
  req.divide = true;
  req.backend = Backend::CPU;
  const PerftReport report = run_perft(req);
  ASSERT_EQ(report.divide.size(), 48u);
  u128 sum = 0;
  for (const DivideEntry& e : report.divide) sum += e.nodes;
  EXPECT_EQ(sum, u128(97862));
  EXPECT_EQ(report.nodes, u128(97862));
  // Castling is written the standard way unless Chess960 is asked for.
  bool saw_e1g1 = false;
  for (const DivideEntry& e : report.divide) saw_e1g1 |= e.uci == "e1g1";
  EXPECT_TRUE(saw_e1g1);
}

TEST(Perft, DivideOfStartPositionMatchesStockfish) {
  PerftRequest req;
  req.root = start_position();
  req.depth = 3;
  req.divide = true;
  req.backend = Backend::CPU;
  const PerftReport report = run_perft(req);
  // Stockfish 15.1, `go perft 3` from the start position: every root move, none missing.
  const std::map<std::string, std::uint64_t> published = {
      {"a2a3", 380}, {"b2b3", 420}, {"c2c3", 420}, {"d2d3", 539}, {"e2e3", 599}, {"f2f3", 380}, {"g2g3", 420},
      {"h2h3", 380}, {"a2a4", 420}, {"b2b4", 421}, {"c2c4", 441}, {"d2d4", 560}, {"e2e4", 600}, {"f2f4", 401},
      {"g2g4", 421}, {"h2h4", 420}, {"b1a3", 400}, {"b1c3", 440}, {"g1f3", 440}, {"g1h3", 400}};
  std::map<std::string, std::uint64_t> divide;
  for (const DivideEntry& e : report.divide) divide[e.uci] = static_cast<std::uint64_t>(e.nodes);
  EXPECT_EQ(divide, published);
}

TEST(Perft, MergingTranspositionsNeverChangesTheCount) {
  for (bool merge : {true, false}) {
    for (unsigned threads : {1u, 2u, 7u}) {
      PerftRequest req;
      req.root = start_position();
      req.depth = 5;
      req.threads = threads;
      req.merge_transpositions = merge;
      req.backend = Backend::CPU;
      EXPECT_EQ(run_perft(req).nodes, u128(4865609)) << "merge=" << merge << " threads=" << threads;
    }
  }
}

// The next level as a plain ordered map finds it: one node per distinct position (and root
// move, when kept), in order of first occurrence, multiplicities added.
std::vector<FrontierNode> merged_by_map(const std::vector<FrontierNode>& level, bool keep_root_moves) {
  std::map<std::string, std::size_t> index;
  std::vector<FrontierNode> merged;
  for (const FrontierNode& node : level)
    for_each_legal_move(node.position, [&](const Position& child, Move) {
      std::string key(reinterpret_cast<const char*>(&child), sizeof(Position));
      if (keep_root_moves) key += "/" + std::to_string(node.root_move);
      const auto [it, inserted] = index.try_emplace(key, merged.size());
      if (inserted) merged.push_back({child, node.multiplicity, node.root_move});
      else merged[it->second].multiplicity += node.multiplicity;
    });
  return merged;
}

void expect_same_nodes(const std::vector<FrontierNode>& got, const std::vector<FrontierNode>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(std::memcmp(&got[i].position, &want[i].position, sizeof(Position)), 0) << "node " << i;
    ASSERT_EQ(got[i].multiplicity, want[i].multiplicity) << "node " << i;
    ASSERT_EQ(got[i].root_move, want[i].root_move) << "node " << i;
  }
}

TEST(Frontier, ALevelBuiltOnSeveralThreadsIsTheOneThreadsMergeInTheSameOrder) {
  const std::pair<const char*, int> levels[] = {{"startpos", 3}, {test_positions::KIWIPETE, 2}};
  for (const auto& [fen, plies] : levels) {
    for (bool keep_root_moves : {false, true}) {
      const std::vector<FrontierNode> level = expand_frontier(parse_fen(fen)->position, plies, keep_root_moves);
      const std::vector<FrontierNode> want = merged_by_map(level, keep_root_moves);
      for (unsigned threads : {1u, 2u, 3u}) {
        SCOPED_TRACE(std::string(fen) + (keep_root_moves ? " divide" : "") + " threads " + std::to_string(threads));
        expect_same_nodes(expand_level(level, keep_root_moves, true, threads), want);
      }
    }
  }
}

TEST(Frontier, AnUnmergedLevelKeepsEveryChildInGenerationOrder) {
  const std::vector<FrontierNode> level =
      expand_frontier(parse_fen(test_positions::KIWIPETE)->position, 2, true, false);
  std::vector<FrontierNode> want;
  for (const FrontierNode& node : level)
    for_each_legal_move(node.position, [&](const Position& child, Move) {
      want.push_back({child, node.multiplicity, node.root_move});
    });
  expect_same_nodes(expand_level(level, true, false, 2), want);
}

TEST(Frontier, MultiplicitiesAddUpToThePathCount) {
  const std::vector<FrontierNode> merged = expand_frontier(start_position(), 4, false);
  const std::vector<FrontierNode> plain = expand_frontier(start_position(), 4, false, false);
  u128 paths = 0;
  for (const FrontierNode& node : merged) paths += node.multiplicity;
  EXPECT_EQ(paths, u128(197281));
  EXPECT_EQ(plain.size(), 197281u);
  EXPECT_LT(merged.size(), plain.size());  // the start position transposes by ply 4
}

}  // namespace
}  // namespace perftkit
