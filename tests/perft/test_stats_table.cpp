// The statistics table (pipeline/stats_subtree_table.hpp, perft/stats_table.hpp): compact
// entries read back exactly, every slot verified, the clock kept in the key only where the
// leaves can see it, and perft --stats through the table equal to the core without one.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "perft/driver.hpp"
#include "perft/stats_table.hpp"
#include "perftkit/position_key.hpp"
#include "pipeline/stats_subtree_table.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

// A table of one bucket: every key lands in it.
struct OneBucket {
  SubtreeBucket bucket{};
  StatsTableView view{&bucket, 1};
};

PositionKey key_number(std::uint64_t n) { return {detail::mix64(n + 1), detail::mix64(n + 1000003)}; }

LeafStats with_nodes(std::uint64_t nodes) {
  LeafStats s{};
  s[NODES] = nodes;
  return s;
}

// Counters of random bit lengths up to max_bits, a third of them zero.
LeafStats random_stats(std::mt19937_64& rng, int max_bits) {
  LeafStats s{};
  for (int f = 0; f < STAT_FIELD_NB; ++f) {
    if (rng() % 3 == 0) continue;
    const int bits = 1 + int(rng() % std::uint64_t(max_bits));
    s.count[f] = (rng() >> (64 - bits)) | std::uint64_t(1) << (bits - 1);
  }
  return s;
}

TEST(StatsTableEntry, EveryCounterReadsBackExactly) {
  std::mt19937_64 rng(7);
  int narrow = 0, wide = 0;
  for (int i = 0; i < 4000; ++i) {
    const LeafStats stats = random_stats(rng, 1 + i % 40);
    const int size = StatsEntryBits::size(stats);
    if (size > StatsEntryBits::WIDE_BITS) continue;
    (size > StatsEntryBits::NARROW_BITS ? wide : narrow) += 1;
    OneBucket t;
    const PositionKey key = key_number(std::uint64_t(i));
    ASSERT_TRUE(store_stats(t.view, key, 5, stats));
    LeafStats back{};
    ASSERT_TRUE(probe_stats(t.view, key, 5, back)) << "entry " << i << " of " << size << " bits";
    EXPECT_EQ(back, stats) << "entry " << i << " of " << size << " bits";
  }
  EXPECT_GT(narrow, 500);
  EXPECT_GT(wide, 500);
}

// Counters of a two-ply subtree as they come: the first `fields` of random bit lengths up to
// max_bits, a third of them zero, the rest zero.
LeafStats random_two_ply_stats(std::mt19937_64& rng, int fields, int max_bits) {
  LeafStats s = random_stats(rng, max_bits);
  for (int f = fields; f < STAT_FIELD_NB; ++f) s.count[f] = 0;
  return s;
}

// Two-ply subtrees of small counters take a small entry (a word pair), and read back
// exactly; those that do not fit one are narrow or wide and read back as well.
TEST(StatsTableEntry, SmallEntriesReadBackExactly) {
  std::mt19937_64 rng(17);
  int small = 0, larger = 0;
  for (int i = 0; i < 4000; ++i) {
    const LeafStats stats = random_two_ply_stats(rng, i % 2 ? StatsEntryBits::SMALL_FIELDS : 12, 1 + i % 16);
    (StatsEntryBits::fits_small(stats, 2) ? small : larger) += 1;
    OneBucket t;
    const PositionKey key = key_number(std::uint64_t(i));
    ASSERT_TRUE(store_stats(t.view, key, 2, stats));
    LeafStats back{};
    ASSERT_TRUE(probe_stats(t.view, key, 2, back)) << "entry " << i;
    EXPECT_EQ(back, stats) << "entry " << i;
    EXPECT_FALSE(probe_stats(t.view, key, 3, back)) << "entry " << i;
  }
  EXPECT_GT(small, 500);
  EXPECT_GT(larger, 500);
}

// What a small entry holds: two plies, the counters up to checkmates, each under 2^16, in
// 64 bits.
TEST(StatsTableEntry, WhatFitsASmallEntry) {
  LeafStats stats = with_nodes(0xFFFF);
  stats[CAPTURES] = 40;
  stats[CHECKMATES] = 3;
  EXPECT_TRUE(StatsEntryBits::fits_small(stats, 2));
  EXPECT_FALSE(StatsEntryBits::fits_small(stats, 3));
  LeafStats too_many = stats;
  too_many[NODES] = 0x10000;
  EXPECT_FALSE(StatsEntryBits::fits_small(too_many, 2));
  LeafStats discovered_mate = stats;
  discovered_mate[DISCOVERED_CHECKMATES] = 1;
  EXPECT_FALSE(StatsEntryBits::fits_small(discovered_mate, 2));
  LeafStats every_small_field{};
  for (int f = 0; f < StatsEntryBits::SMALL_FIELDS; ++f) every_small_field.count[f] = 0x8000;
  EXPECT_FALSE(StatsEntryBits::fits_small(every_small_field, 2));  // 2 + 9 + 9 * 19 bits
  for (const LeafStats& s : {stats, too_many, discovered_mate, every_small_field}) {
    OneBucket t;
    ASSERT_TRUE(store_stats(t.view, key_number(9), 2, s));
    LeafStats back{};
    ASSERT_TRUE(probe_stats(t.view, key_number(9), 2, back));
    EXPECT_EQ(back, s);
  }
}

// Small entries as deep as what the bucket holds go first in line, and the last four stored
// stay; beside a deeper entry, the last two.
TEST(StatsTableEntry, SmallEntriesKeepTheLastFour) {
  OneBucket t;
  LeafStats back{};
  for (std::uint64_t n = 1; n <= 5; ++n) ASSERT_TRUE(store_stats(t.view, key_number(n), 2, with_nodes(100 + n)));
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 2, back));
  for (std::uint64_t n = 2; n <= 5; ++n) {
    ASSERT_TRUE(probe_stats(t.view, key_number(n), 2, back)) << n;
    EXPECT_EQ(back, with_nodes(100 + n)) << n;
  }
  // A deeper narrow entry takes the first half; two of the small ones move to the second.
  ASSERT_TRUE(store_stats(t.view, key_number(6), 5, with_nodes(66666)));
  EXPECT_FALSE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_FALSE(probe_stats(t.view, key_number(3), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(4), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(5), 2, back));
  // Beside it, the small ones go on in the second half.
  ASSERT_TRUE(store_stats(t.view, key_number(7), 2, with_nodes(107)));
  EXPECT_FALSE(probe_stats(t.view, key_number(4), 2, back));
  ASSERT_TRUE(probe_stats(t.view, key_number(5), 2, back));
  EXPECT_EQ(back, with_nodes(105));
  ASSERT_TRUE(probe_stats(t.view, key_number(7), 2, back));
  EXPECT_EQ(back, with_nodes(107));
  ASSERT_TRUE(probe_stats(t.view, key_number(6), 5, back));
  EXPECT_EQ(back, with_nodes(66666));
}

// A narrow two-ply entry in the first half moves to the second when a small one arrives, and
// then makes way for the small ones.
TEST(StatsTableEntry, SmallEntriesPassANarrowOneAsDeep) {
  OneBucket t;
  LeafStats back{};
  LeafStats narrow = with_nodes(500);
  narrow[STALEMATES] = 2;
  ASSERT_FALSE(StatsEntryBits::fits_small(narrow, 2));
  ASSERT_TRUE(store_stats(t.view, key_number(1), 2, narrow));
  ASSERT_TRUE(store_stats(t.view, key_number(2), 2, with_nodes(22)));
  ASSERT_TRUE(probe_stats(t.view, key_number(1), 2, back));
  EXPECT_EQ(back, narrow);
  ASSERT_TRUE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_EQ(back, with_nodes(22));
  ASSERT_TRUE(store_stats(t.view, key_number(3), 2, with_nodes(33)));
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(3), 2, back));
}

// Either word of a small entry changed fails its check.
TEST(StatsTableEntry, ATornSmallEntryReadsAsAMiss) {
  for (int word = 0; word < 2; ++word) {
    OneBucket t;
    LeafStats stats = with_nodes(777);
    stats[CHECKS] = 12;
    ASSERT_TRUE(StatsEntryBits::fits_small(stats, 2));
    ASSERT_TRUE(store_stats(t.view, key_number(3), 2, stats));
    t.bucket.word[word] ^= std::uint64_t(1) << 40;
    LeafStats back{};
    EXPECT_FALSE(probe_stats(t.view, key_number(3), 2, back)) << "word " << word;
  }
}

// A subtree whose counters are all in the tens of billions needs more than a wide entry:
// it is not kept, and reads as a miss.
TEST(StatsTableEntry, TooLongIsNotKept) {
  LeafStats huge{};
  for (int f = 0; f < STAT_FIELD_NB; ++f) huge.count[f] = (std::uint64_t(1) << 40) + std::uint64_t(f);
  ASSERT_GT(StatsEntryBits::size(huge), StatsEntryBits::WIDE_BITS);
  OneBucket t;
  EXPECT_FALSE(store_stats(t.view, key_number(1), 9, huge));
  LeafStats back{};
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 9, back));
}

TEST(StatsTableEntry, OtherKeyOrDepthMisses) {
  OneBucket t;
  ASSERT_TRUE(store_stats(t.view, key_number(1), 4, with_nodes(1234)));
  LeafStats back{};
  EXPECT_FALSE(probe_stats(t.view, key_number(2), 4, back));
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 3, back));
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 5, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(1), 4, back));
  EXPECT_EQ(back[NODES], 1234u);
}

// Any word of an entry changed (a store torn by another thread) fails its check.
TEST(StatsTableEntry, ATornEntryReadsAsAMiss) {
  for (int word = 0; word < 4; ++word) {
    OneBucket t;
    LeafStats stats = with_nodes(99999);
    stats[CAPTURES] = 321;
    ASSERT_TRUE(store_stats(t.view, key_number(3), 3, stats));
    t.bucket.word[word] ^= std::uint64_t(1) << 17;
    LeafStats back{};
    EXPECT_FALSE(probe_stats(t.view, key_number(3), 3, back)) << "word " << word;
  }
}

// Two narrow entries share a bucket; the first slot keeps the deepest; a wide entry takes
// the bucket only when nothing in it is deeper.
TEST(StatsTableEntry, ReplacementKeepsTheDeep) {
  OneBucket t;
  LeafStats back{};
  ASSERT_TRUE(store_stats(t.view, key_number(1), 6, with_nodes(600)));
  ASSERT_TRUE(store_stats(t.view, key_number(2), 2, with_nodes(20)));
  EXPECT_TRUE(probe_stats(t.view, key_number(1), 6, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(2), 2, back));
  ASSERT_TRUE(store_stats(t.view, key_number(3), 3, with_nodes(30)));  // shallower than 6: the second slot
  EXPECT_TRUE(probe_stats(t.view, key_number(1), 6, back));
  EXPECT_FALSE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(3), 3, back));

  std::mt19937_64 rng(3);
  LeafStats wide = random_stats(rng, 40);
  while (StatsEntryBits::size(wide) <= StatsEntryBits::NARROW_BITS ||
         StatsEntryBits::size(wide) > StatsEntryBits::WIDE_BITS)
    wide = random_stats(rng, 40);
  EXPECT_FALSE(store_stats(t.view, key_number(4), 5, wide));  // 6 is deeper
  EXPECT_FALSE(probe_stats(t.view, key_number(4), 5, back));
  EXPECT_TRUE(store_stats(t.view, key_number(4), 7, wide));
  EXPECT_TRUE(probe_stats(t.view, key_number(4), 7, back));
  EXPECT_EQ(back, wide);
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 6, back));
  EXPECT_FALSE(store_stats(t.view, key_number(5), 2, with_nodes(5)));  // a deeper wide entry stays
  EXPECT_TRUE(store_stats(t.view, key_number(5), 8, with_nodes(5)));
  EXPECT_TRUE(probe_stats(t.view, key_number(5), 8, back));
  EXPECT_FALSE(probe_stats(t.view, key_number(4), 7, back));
}

// Of entries as deep as the first slot's (most are two plies), the last two stored stay: the
// one in the first slot moves to the second, and reads back exactly from there.
TEST(StatsTableEntry, EntriesAsDeepKeepTheLastTwo) {
  std::mt19937_64 rng(11);
  OneBucket t;
  LeafStats back{};
  const LeafStats first = random_stats(rng, 4), second = random_stats(rng, 4), third = random_stats(rng, 4);
  for (const LeafStats& s : {first, second, third}) ASSERT_LE(StatsEntryBits::size(s), StatsEntryBits::NARROW_BITS);
  ASSERT_TRUE(store_stats(t.view, key_number(1), 2, first));
  ASSERT_TRUE(store_stats(t.view, key_number(2), 2, second));
  ASSERT_TRUE(probe_stats(t.view, key_number(1), 2, back));
  EXPECT_EQ(back, first);
  ASSERT_TRUE(store_stats(t.view, key_number(3), 2, third));
  EXPECT_FALSE(probe_stats(t.view, key_number(1), 2, back));
  ASSERT_TRUE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_EQ(back, second);
  ASSERT_TRUE(probe_stats(t.view, key_number(3), 2, back));
  EXPECT_EQ(back, third);
  // A deeper entry takes the first slot, and the one there moves on.
  ASSERT_TRUE(store_stats(t.view, key_number(4), 4, with_nodes(44)));
  EXPECT_FALSE(probe_stats(t.view, key_number(2), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(3), 2, back));
  EXPECT_TRUE(probe_stats(t.view, key_number(4), 4, back));
}

// The clock is part of the key only from 100 - depth on: below it every clock shares the
// entry, from it on each clock has its own.
TEST(StatsTableKey, ClockOnlyWhereALeafCanReach100) {
  const KeySet keys(1);
  const auto key_at = [&](int clock, int depth) {
    Position pos = position_from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 60");
    pos.halfmove_clock = std::uint16_t(clock);
    return stats_subtree_key(position_key(pos, keys), pos, depth);
  };
  EXPECT_EQ(key_at(0, 3), key_at(96, 3));
  EXPECT_NE(key_at(96, 3), key_at(97, 3));
  EXPECT_NE(key_at(97, 3), key_at(98, 3));
  EXPECT_EQ(key_at(10, 4), key_at(95, 4));
  EXPECT_NE(key_at(95, 4), key_at(96, 4));
  EXPECT_NE(key_at(10, 3), key_at(10, 4));  // the depth is in the key too
}

// ---- perft --stats through the table --------------------------------------------------------

StatsTotals stats_of(const Position& root, int depth, std::size_t hash_bytes, std::uint64_t seed = 1,
                     StatsTableUse* use = nullptr) {
  PerftRequest req;
  req.root = root;
  req.depth = depth;
  req.stats = true;
  req.backend = Backend::CPU;
  req.hash_bytes = hash_bytes;
  req.hash_seed = seed;
  const PerftReport report = run_perft(req);
  if (use) *use = report.stats_table;
  return report.stats;
}

// Published rows: start position 5 (CPW: 4,865,609 nodes, 82,719 captures, 258 e.p., 27,351
// checks, 6 discovered, 347 mates) and Kiwipete 4 (4,085,603 nodes, 757,163 captures,
// 1,929 e.p., 128,013 castles, 15,172 promotions, 25,523 checks, 42 discovered, 6 double,
// 43 mates), through a table of 1 MB (16,384 buckets: most stores displace another).
TEST(StatsThroughTable, PublishedRowsInASmallTable) {
  StatsTableUse use;
  const StatsTotals start = stats_of(position_from_fen(START_FEN), 5, std::size_t(1) << 20, 1, &use);
  EXPECT_EQ(start[NODES], 4865609u);
  EXPECT_EQ(start[CAPTURES], 82719u);
  EXPECT_EQ(start[EN_PASSANT_CAPTURES], 258u);
  EXPECT_EQ(start[CHECKS], 27351u);
  EXPECT_EQ(start[DISCOVERED_CHECKS], 6u);
  EXPECT_EQ(start[CHECKMATES], 347u);
  EXPECT_GT(use.hits, 0u);
  EXPECT_GT(use.probes, use.hits);

  const StatsTotals kiwi = stats_of(position_from_fen(KIWIPETE), 4, std::size_t(1) << 20);
  EXPECT_EQ(kiwi[NODES], 4085603u);
  EXPECT_EQ(kiwi[CAPTURES], 757163u);
  EXPECT_EQ(kiwi[EN_PASSANT_CAPTURES], 1929u);
  EXPECT_EQ(kiwi[CASTLES], 128013u);
  EXPECT_EQ(kiwi[PROMOTIONS], 15172u);
  EXPECT_EQ(kiwi[CHECKS], 25523u);
  EXPECT_EQ(kiwi[DISCOVERED_CHECKS], 42u);
  EXPECT_EQ(kiwi[DOUBLE_CHECKS], 6u);
  EXPECT_EQ(kiwi[CHECKMATES], 43u);
}

// Every counter, draws and clocks included, equals the core's without a table (itself held
// to the published tables and an independent classifier in test_stats.cpp): positions where
// leaves reach 100 and 150 half-moves, dead material, promotions, a tiny table and two seeds.
TEST(StatsThroughTable, EveryCounterEqualsTheCoreWithoutATable) {
  const char* fens[] = {"4k3/8/8/8/8/8/4P3/4K3 w - - 96 60",
                        "4k3/8/8/8/8/8/4P3/4K3 w - - 146 90",
                        "8/8/8/8/2k5/8/3Kp3/6N1 w - - 95 80",
                        "4kb2/8/8/8/8/8/1p6/2B1K3 w - - 0 1",
                        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                        POSITION3,
                        POSITION4,
                        POSITION5};
  for (const char* fen : fens) {
    const Position root = position_from_fen(fen);
    for (int depth = 3; depth <= 5; ++depth) {
      const StatsTotals reference = stats_of(root, depth, 0);
      for (const std::size_t bytes : {std::size_t(64) << 10, std::size_t(8) << 20})
        for (const std::uint64_t seed : {1, 2})
          EXPECT_EQ(stats_of(root, depth, bytes, seed), reference)
              << fen << " depth " << depth << ", " << bytes << " bytes, seed " << seed;
    }
  }
}

}  // namespace
}  // namespace perftkit
