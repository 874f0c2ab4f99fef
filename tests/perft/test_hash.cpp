// Transposition table of subtree counts: hits are exact, collisions and replacement never
// change a count, and independent key sets agree.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "notation/fen.hpp"
#include "perft/hash_sizing.hpp"
#include "perft/hashed_perft.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "notation/suite.hpp"
#include "support/test_paths.hpp"
#include "support/standard_positions.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

Position position(const char* fen) {
  const FenResult parsed = parse_fen(fen);
  EXPECT_TRUE(parsed) << parsed.error;
  return parsed ? parsed->position : Position{};
}

TEST(PerftTable, StoredCountIsFoundOnlyUnderItsKeyAndDepth) {
  PerftTable table(1 << 20);
  const PositionKey key{0x123456789ABCDEF0ULL, 0x0FEDCBA987654321ULL};
  table.store(key, 5, 4865609);
  std::uint64_t count = 0;
  ASSERT_TRUE(table.probe(key, 5, count));
  EXPECT_EQ(count, 4865609u);
  EXPECT_FALSE(table.probe(key, 4, count));
  EXPECT_FALSE(table.probe(PositionKey{key.lo, key.hi ^ 1}, 5, count));  // same slot, other key
  EXPECT_FALSE(table.probe(PositionKey{key.lo ^ 2, key.hi}, 5, count));
}

// Resident memory of this process, from /proc/self/statm (0 where it cannot be read).
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t total_pages = 0, resident_pages = 0;
  statm >> total_pages >> resident_pages;
  return resident_pages * std::size_t(sysconf(_SC_PAGESIZE));
}

// Every page is faulted in when the table is made (a prefetch into an untouched page stalls
// the search), and the table still reads as empty.
TEST(PerftTable, PagesAreResidentAndEmptyFromTheStart) {
  const std::size_t bytes = std::size_t(64) << 20;
  const std::size_t before = resident_bytes();
  if (!before) GTEST_SKIP() << "no /proc/self/statm";
  const PerftTable table(bytes, 2);
  EXPECT_GE(resident_bytes(), before + bytes * 15 / 16);
  std::uint64_t count = 0;
  for (std::uint64_t i = 1; i <= 1000; ++i) {
    const PositionKey key{i * 0x9E3779B97F4A7C15ULL, i * 0xC2B2AE3D27D4EB4FULL};
    EXPECT_FALSE(table.probe(key, 2, count)) << i;
    EXPECT_FALSE(table.probe(key, 5, count)) << i;
  }
}

TEST(PerftTable, DeeperEntryIsKeptWhenShallowOnesCollide) {
  PerftTable table(64);  // one bucket of four slots: every key collides
  const PositionKey deep{1, 1};
  table.store(deep, 9, 111);
  std::uint64_t count = 0;
  for (std::uint64_t k = 2; k < 40; ++k) {
    table.store(PositionKey{k, k}, 3, 1000 + k);
    ASSERT_TRUE(table.probe(deep, 9, count)) << k;
    EXPECT_EQ(count, 111u);
    ASSERT_TRUE(table.probe(PositionKey{k, k}, 3, count)) << k;  // the newest is always kept
    EXPECT_EQ(count, 1000 + k);
  }
  // Only three shallow ones fit beside the deep one: the oldest are gone, and every hit is exact.
  int hits = 0;
  for (std::uint64_t k = 2; k < 40; ++k)
    if (table.probe(PositionKey{k, k}, 3, count)) {
      EXPECT_EQ(count, 1000 + k);
      ++hits;
    }
  EXPECT_EQ(hits, 3);
}

// A deep slot holds a depth and a count of up to 56 bits, both checked: one key's subtrees of
// several depths live side by side, and a count the slot cannot hold is not kept.
TEST(PerftTable, DeepSlotsKeepDepthAndCountApart) {
  PerftTable table(std::size_t(16) << 20);
  const PositionKey key{0x0123456789ABCDEFULL, 0xFEDCBA9876543210ULL};
  table.store(key, 3, 97862);  // Kiwipete perft 3: more than a two-ply slot holds
  table.store(key, 4, 4085603);
  table.store(key, 255, SubtreeTableLayout::MAX_DEEP_COUNT);
  std::uint64_t count = 0;
  ASSERT_TRUE(table.probe(key, 3, count));
  EXPECT_EQ(count, 97862u);
  ASSERT_TRUE(table.probe(key, 4, count));
  EXPECT_EQ(count, 4085603u);
  ASSERT_TRUE(table.probe(key, 255, count));
  EXPECT_EQ(count, SubtreeTableLayout::MAX_DEEP_COUNT);
  EXPECT_FALSE(table.probe(key, 5, count));
  EXPECT_FALSE(table.probe(PositionKey{key.lo, key.hi ^ (1ULL << 63)}, 4, count));
  const PositionKey other{0x1111, 0x2222};
  table.store(other, 6, SubtreeTableLayout::MAX_DEEP_COUNT + 1);
  EXPECT_FALSE(table.probe(other, 6, count));
  table.store(key, 4, 0);  // the same key and depth again takes its own slot
  ASSERT_TRUE(table.probe(key, 4, count));
  EXPECT_EQ(count, 0u);
  ASSERT_TRUE(table.probe(key, 3, count));
  EXPECT_EQ(count, 97862u);
}

// Two-ply counts live in their own array (tables of 8 MiB and more), checked by a 64-bit
// fingerprint of the key: still found only under the whole key and depth.
TEST(PerftTable, TwoPlyCountIsFoundOnlyUnderItsWholeKey) {
  PerftTable table(std::size_t(16) << 20);
  ASSERT_GT(table.two_ply_bytes(), 0u);
  EXPECT_EQ(table.bytes(), std::size_t(16) << 20);
  const PositionKey key{0x123456789ABCDEF0ULL, 0x0FEDCBA987654321ULL};
  table.store(key, 2, 47524);
  std::uint64_t count = 0;
  ASSERT_TRUE(table.probe(key, 2, count));
  EXPECT_EQ(count, 47524u);
  EXPECT_FALSE(table.probe(key, 3, count));                                         // the deep array
  EXPECT_FALSE(table.probe(PositionKey{key.lo, key.hi ^ 1}, 2, count));             // same bucket
  EXPECT_FALSE(table.probe(PositionKey{key.lo ^ (1ULL << 40), key.hi}, 2, count));  // stored tag bits
  EXPECT_FALSE(table.probe(PositionKey{key.lo ^ 1, key.hi}, 2, count));             // implied bits
  table.store(key, 2, 7);  // the same key again takes its own slot
  ASSERT_TRUE(table.probe(key, 2, count));
  EXPECT_EQ(count, 7u);
  const PositionKey other{0x1111, 0x2222};
  table.store(other, 2, SubtreeTableLayout::MAX_TWO_PLY_COUNT + 1);  // too big for a slot: not kept
  EXPECT_FALSE(table.probe(other, 2, count));
  table.store(other, 2, SubtreeTableLayout::MAX_TWO_PLY_COUNT);
  ASSERT_TRUE(table.probe(other, 2, count));
  EXPECT_EQ(count, SubtreeTableLayout::MAX_TWO_PLY_COUNT);
}

// A table of 30 MiB: 20 MiB of two-ply groups, and 10 MiB of deep buckets (not a power of
// two), every one of which a key can reach, the first and the last included.
TEST(PerftTable, DeepBucketsNeedNotBeAPowerOfTwo) {
  PerftTable table(std::size_t(30) << 20);
  EXPECT_EQ(table.bytes(), std::size_t(30) << 20);
  EXPECT_EQ(table.two_ply_bytes(), std::size_t(20) << 20);
  const std::uint64_t keys = 1000, spacing = ~std::uint64_t(0) / (keys - 1);
  for (std::uint64_t i = 0; i < keys; ++i) table.store(PositionKey{i * spacing, i}, 4, 1000 + i);
  std::uint64_t count = 0;
  for (std::uint64_t i = 0; i < keys; ++i) {
    ASSERT_TRUE(table.probe(PositionKey{i * spacing, i}, 4, count)) << i;
    EXPECT_EQ(count, 1000 + i);
    EXPECT_FALSE(table.probe(PositionKey{i * spacing, i + 1}, 4, count)) << i;
  }
}

// Eight keys of one two-ply bucket (six slots): every probe that hits is exact, and a count
// of 0 (a mated or stalemated child at every move) is stored like any other.
TEST(PerftTable, FullTwoPlyBucketNeverAnswersWrongly) {
  PerftTable table(std::size_t(8) << 20);
  std::uint64_t count = 0;
  for (std::uint64_t k = 1; k <= 8; ++k) table.store(PositionKey{0xABC0000, k}, 2, 100 * (k - 1));
  int hits = 0;
  for (std::uint64_t k = 1; k <= 8; ++k)
    if (table.probe(PositionKey{0xABC0000, k}, 2, count)) {
      EXPECT_EQ(count, 100 * (k - 1));
      ++hits;
    }
  EXPECT_GE(hits, 4);
  EXPECT_LE(hits, SubtreeTableLayout::TWO_PLY_SLOTS);
  table.store(PositionKey{0xABC0000, 9}, 2, 0);
  ASSERT_TRUE(table.probe(PositionKey{0xABC0000, 9}, 2, count));
  EXPECT_EQ(count, 0u);
}

// The smallest split table (4 MiB of two-ply buckets) under start position perft 7, whose
// 822,518 distinct positions of ply 5 overflow its 262,144 two-ply slots many times.
TEST(HashedPerft, SmallestSplitTableUnderConstantReplacement) {
  PerftTable table(std::size_t(8) << 20);
  ASSERT_EQ(table.two_ply_bytes(), std::size_t(4) << 20);
  EXPECT_EQ(perft_hashed(position("startpos"), 7, table, KeySet(5)), 3195901860u);
}

TEST(PositionKey, ClocksDoNotMatterButEverythingElseDoes) {
  const KeySet keys(7);
  const Position a = position(test_positions::KIWIPETE);
  const Position b = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 17 40");
  const Position c = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kkq - 0 1");
  const Position d = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
  EXPECT_EQ(position_key(a, keys), position_key(b, keys));
  EXPECT_NE(position_key(a, keys), position_key(c, keys));
  EXPECT_NE(position_key(a, keys), position_key(d, keys));
  EXPECT_NE(position_key(a, keys), position_key(a, KeySet(8)));
}

// 263 legal moves (invented: 28 white queens), more than one child buffer holds, at the
// root of a two-ply and a three-ply hashed node. Counts from python-chess 1.11.
TEST(HashedPerft, MoreLegalMovesThanTheChildBufferHolds) {
  const Position pos = position("kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1");
  PerftTable table(std::size_t(16) << 20);
  EXPECT_EQ(perft_hashed(pos, 2, table, KeySet(1)), 1419u);
  EXPECT_EQ(perft_hashed(pos, 3, table, KeySet(1)), 345103u);
  EXPECT_EQ(perft_hashed(pos, 3, table, KeySet(1)), 345103u);  // now from the table
}

// Hash on and off agree; tiny tables make replacement and index collisions constant.
TEST(HashedPerft, AgreesWithPlainPerftAtEveryTableSize) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      test_positions::KIWIPETE,
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  };
  for (const char* fen : fens) {
    const Position pos = position(fen);
    const std::uint64_t expected = perft(pos, 5);
    for (std::size_t bytes : {std::size_t(64), std::size_t(4096), std::size_t(64) << 20}) {
      PerftTable table(bytes);
      EXPECT_EQ(perft_hashed(pos, 5, table, KeySet(1)), expected) << fen << " table " << bytes;
      EXPECT_EQ(perft_hashed(pos, 5, table, KeySet(1)), expected) << fen << " second run, table " << bytes;
    }
  }
}

TEST(HashedPerft, IndependentSeedsGiveTheSameCount) {
  const Position start = position("startpos");
  PerftTable a(16 << 20), b(16 << 20);
  EXPECT_EQ(perft_hashed(start, 6, a, KeySet(1)), 119060324u);
  EXPECT_EQ(perft_hashed(start, 6, b, KeySet(0xDEADBEEF)), 119060324u);
}

// The shared suites at small depth, with a table small enough to thrash.
TEST(HashedPerft, SharedSuitesMatchWithThrashingTable) {
  const std::filesystem::path dir = std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no shared data at " << dir;
  PerftTable table(32 << 10);
  const KeySet keys(3);
  std::size_t checked = 0;
  for (const char* name :
       {"standard.epd", "perft.epd", "tricky.perft", "fischer.epd", "perft-ferdy-double-checks.epd"}) {
    const SuiteFileResult suite = read_suite(dir / name);
    ASSERT_TRUE(suite) << suite.error;
    for (const SuiteCase& c : suite->cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
      for (const ExpectedCount& e : c.expected) {
        if (e.depth > 4) continue;
        EXPECT_EQ(u128(perft_hashed(parsed->position, e.depth, table, keys)), e.nodes) << c.source << " D" << e.depth;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000u);
}

}  // namespace
}  // namespace perftkit

namespace perftkit {
namespace {

// The driver with a shared table across threads, tiny and large, with and without divide.
TEST(HashedPerft, DriverAgreesWithoutTableAcrossThreadsAndSizes) {
  const Position kiwipete = position(test_positions::KIWIPETE);
  for (std::size_t bytes : {std::size_t(64), std::size_t(1) << 16, std::size_t(256) << 20}) {
    for (unsigned threads : {1u, 2u, 5u}) {
      PerftRequest req;
      req.root = kiwipete;
      req.depth = 5;
      req.threads = threads;
      req.divide = true;
      req.backend = Backend::CPU;
      req.hash_bytes = bytes;
      req.hash_seed = threads;
      const PerftReport report = run_perft(req);
      EXPECT_EQ(report.nodes, u128(193690690)) << bytes << " bytes, " << threads << " threads";
      u128 sum = 0;
      for (const DivideEntry& e : report.divide) sum += e.nodes;
      EXPECT_EQ(sum, u128(193690690));
    }
  }
}

// The default table follows the run: none below depth 3, a floor for small runs, growing
// with depth (about 13 times a ply from the start position), in whole 64 MiB steps.
TEST(HashSizing, TableGrowsWithTheDepthItServes) {
  const Position start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(suggested_hash_bytes(start, 2), 0u);
  EXPECT_EQ(suggested_hash_bytes(start, 4), std::size_t(16) << 20);
  std::size_t previous = 0;
  for (int depth = 3; depth <= 12; ++depth) {
    const std::size_t bytes = suggested_hash_bytes(start, depth);
    if (bytes > (std::size_t(16) << 20)) {
      EXPECT_EQ(bytes % (std::size_t(64) << 20), 0u) << depth;
    }
    EXPECT_GE(bytes, previous) << depth;
    previous = bytes;
  }
  // Perft 8 stores the 9.4 million distinct positions of ply 6 as two-ply subtrees, a sixth
  // of a 64-byte bucket each in four fifths of the table: at least 0.13 GB; the estimate
  // runs high.
  EXPECT_GE(suggested_hash_bytes(start, 8), std::size_t(128) << 20);
  EXPECT_LE(suggested_hash_bytes(start, 8), std::size_t(512) << 20);
  // Perft 9 stores the 96.4 million of ply 7 (1.03 GB in four fifths: 1.29 GB), and its
  // deeper subtrees fit in the fifth left of a table not much bigger: memory past that is
  // page faults, not speed.
  EXPECT_GE(suggested_hash_bytes(start, 9), std::size_t(1216) << 20);
  EXPECT_LE(suggested_hash_bytes(start, 9), std::size_t(2048) << 20);
  // Perft 8 --stats stores the same 9.4 million two-ply subtrees, 32 bytes each at full load:
  // 0.30 GB, and its deeper ones (under a million) at three quarters, in 64 MB steps.
  EXPECT_GE(suggested_stats_hash_bytes(start, 8), std::size_t(320) << 20);
  EXPECT_LE(suggested_stats_hash_bytes(start, 8), std::size_t(448) << 20);
  // Kiwipete's ply 4 (4.1 M positions) is extrapolated from plies 1-3, not counted (that
  // took a second and 400 MB): its tables stay near what counting gave (448 MB for perft 7's
  // nodes; 1,344 MB for its statistics with every subtree at three quarters load, about
  // 1,008 MB with the two-ply ones at full load, as now), a little larger.
  const Position kiwipete = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_GE(suggested_hash_bytes(kiwipete, 7), std::size_t(448) << 20);
  EXPECT_LE(suggested_hash_bytes(kiwipete, 7), std::size_t(768) << 20);
  EXPECT_GE(suggested_stats_hash_bytes(kiwipete, 7), std::size_t(1008) << 20);
  EXPECT_LE(suggested_stats_hash_bytes(kiwipete, 7), std::size_t(2048) << 20);
  // A position with no legal move has nothing to store.
  EXPECT_EQ(suggested_hash_bytes(position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 6), std::size_t(16) << 20);
}

}  // namespace
}  // namespace perftkit
