// A lossy, lock-free table of subtree statistics: the leaf counters (LeafStats) of
// the tree of `depth` plies below a position, keyed by the position's 128-bit key, the depth,
// and the half-move clock only where a leaf within `depth` plies can reach 100 (the clock
// horizon, as the frontier's merge keeps it: below it, transpositions share an entry).
// A trivially copyable view, as SubtreeTableView, so that any system may probe it; the
// memory belongs to the owner (perft/stats_table.hpp on the CPU core).
//
// Compact entries (docs/stats-table.md). Twenty-one 64-bit counters would take 168 bytes an
// entry; most counters of a subtree are zero or small, and every counter counts leaves, so
// none exceeds the node count. An entry is a check word and a stream of bits:
//   - a header: the depth (8 bits) and whether the entry is wide (1 bit);
//   - which counters are not zero (a bit each, STAT_FIELD_NB);
//   - each counter that is not, in field order: its bit length L - 1 (6 bits), then its L - 1
//     low bits (the top bit is 1 by definition, and left out).
// An entry of at most 192 bits is narrow: a check and 3 words, two to a 64-byte bucket. One
// of at most 448 bits is wide: a check and 7 words, a bucket of its own. A longer one (every
// counter in the tens of millions: a subtree far above the leaves) is not kept: a miss later,
// never a wrong count. Nine in ten two-ply subtrees of the start position take under 80 bits.
//
// The check word is a 64-bit fingerprint of the whole key mixed with a hash of every payload
// word, so a slot torn by a concurrent store, or overwritten, or read as the wrong width,
// reads as a miss.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "perftkit/position_key.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/functors.hpp"
#include "pipeline/subtree_table.hpp"

namespace perftkit {

PERFTKIT_ISA_BEGIN

// The key a statistics subtree is stored under: the position's key salted with the depth and
// with the clock where the leaves can see it (stats_clock_horizon; 0 elsewhere).
PERFTKIT_HD_INLINE PositionKey stats_subtree_key(const PositionKey& key, const Position& pos, int depth) {
  const std::uint64_t clock = pipeline::stats_clock_horizon(depth)(pos);
  const std::uint64_t salt = detail::mix64((clock << 8 | std::uint64_t(depth)) + 0x6A09E667F3BCC909ULL);
  return {key.lo ^ salt, key.hi + salt};
}

// The bits of one entry's payload, lowest bit of word[0] first.
struct StatsEntryBits {
  static constexpr int NARROW_WORDS = 3, WIDE_WORDS = 7;
  static constexpr int NARROW_BITS = NARROW_WORDS * 64, WIDE_BITS = WIDE_WORDS * 64;
  static constexpr int DEPTH_BITS = 8, LENGTH_BITS = 6;
  static constexpr int HEADER_BITS = DEPTH_BITS + 1 + STAT_FIELD_NB;

  std::uint64_t word[WIDE_WORDS] = {};
  int bits = 0;

  // Appends the n (0..64) low bits of value, which has no higher bits; the caller keeps the
  // total within WIDE_BITS.
  PERFTKIT_HD_INLINE void put(std::uint64_t value, int n) {
    if (n == 0) return;
    const int w = bits >> 6, at = bits & 63;
    word[w] |= value << at;
    if (at + n > 64) word[w + 1] |= value >> (64 - at);
    bits += n;
  }

  // Bits an entry of these counters takes. (Without branches: a zero counter takes none, and
  // its bit width is 0.)
  PERFTKIT_HD_INLINE static int size(const LeafStats& stats) {
    int n = HEADER_BITS;
    for (int f = 0; f < STAT_FIELD_NB; ++f)
      n += int(std::bit_width(stats.count[f])) + (stats.count[f] ? LENGTH_BITS - 1 : 0);
    return n;
  }

  // The counters that are not zero, a bit each in field order.
  PERFTKIT_HD_INLINE static std::uint64_t nonzero_fields(const LeafStats& stats) {
    std::uint64_t nonzero = 0;
    for (int f = 0; f < STAT_FIELD_NB; ++f) nonzero |= std::uint64_t(stats.count[f] != 0) << f;
    return nonzero;
  }

  // The entry of `stats` at `depth` (1..255), of either width; the caller has checked its
  // size against WIDE_BITS.
  PERFTKIT_HD_INLINE static StatsEntryBits encode(const LeafStats& stats, int depth, bool wide) {
    StatsEntryBits e;
    const std::uint64_t nonzero = nonzero_fields(stats);
    e.put(std::uint64_t(depth), DEPTH_BITS);
    e.put(wide ? 1 : 0, 1);
    e.put(nonzero, STAT_FIELD_NB);
    // Only the counters that are not zero (most are zero), one set bit at a time.
    for (std::uint64_t rest = nonzero; rest; rest &= rest - 1) {
      const std::uint64_t v = stats.count[std::countr_zero(rest)];
      const int length = int(std::bit_width(v));
      e.put(std::uint64_t(length - 1), LENGTH_BITS);
      e.put(v & ~(std::uint64_t(1) << (length - 1)), length - 1);
    }
    return e;
  }

  // The n (0..64) bits at *at of words, advancing *at.
  PERFTKIT_HD_INLINE static std::uint64_t get(const std::uint64_t* words, int& at, int n) {
    if (n == 0) return 0;
    const int w = at >> 6, shift = at & 63;
    std::uint64_t v = words[w] >> shift;
    if (shift + n > 64) v |= words[w + 1] << (64 - shift);
    at += n;
    return n == 64 ? v : v & ((std::uint64_t(1) << n) - 1);
  }

  // The counters of a payload whose check has verified (so its lengths are its own).
  PERFTKIT_HD_INLINE static LeafStats decode(const std::uint64_t* words) {
    int at = DEPTH_BITS + 1;
    const std::uint64_t nonzero = get(words, at, STAT_FIELD_NB);
    LeafStats stats{};
    for (std::uint64_t rest = nonzero; rest; rest &= rest - 1) {
      const int top = int(get(words, at, LENGTH_BITS));
      stats.count[std::countr_zero(rest)] = std::uint64_t(1) << top | get(words, at, top);
    }
    return stats;
  }

  PERFTKIT_HD_INLINE static int depth_of(std::uint64_t first_word) { return int(first_word & 0xFF); }
  PERFTKIT_HD_INLINE static bool wide_of(std::uint64_t first_word) { return (first_word >> DEPTH_BITS & 1) != 0; }
};
PERFTKIT_ISA_END

// The table's memory: the data a system hands around. Its probe and store are the free
// functions below, in the instruction-set namespace (config.hpp), so that each level of the
// CPU core inlines a copy built for its own instructions.
struct StatsTableView {
  SubtreeBucket* memory = nullptr;
  std::uint64_t buckets = 1;

  PERFTKIT_HD_INLINE explicit operator bool() const { return memory != nullptr; }
};

PERFTKIT_ISA_BEGIN
namespace stats_entry {

PERFTKIT_HD_INLINE std::uint64_t fingerprint(const PositionKey& key) { return key.hi ^ detail::mix64(key.lo); }

// The check word of a payload of n (3 or 7) words under a key of this fingerprint: the words
// multiplied in salted pairs (the last one with the width, so that a narrow entry never
// verifies as a wide one or the reverse), the products summed and finished. The pairs are
// independent, so the multiplications overlap.
PERFTKIT_HD_INLINE std::uint64_t check(std::uint64_t print, const std::uint64_t* payload, int n) {
  constexpr std::uint64_t SALT[8] = {0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL, 0x8EBC6AF09C88C6E3ULL,
                                     0x589965CC75374CC3ULL, 0x1D8E4E27C47D124FULL, 0x9E3779B97F4A7C15ULL,
                                     0xD1B54A32D192ED03ULL, 0xBF58476D1CE4E5B9ULL};
  std::uint64_t sum = detail::fold_multiply(payload[n - 1] ^ SALT[n - 1], std::uint64_t(n) ^ SALT[7]);
  for (int i = 0; i + 1 < n; i += 2) sum += detail::fold_multiply(payload[i] ^ SALT[i], payload[i + 1] ^ SALT[i + 1]);
  return print ^ detail::mix64(sum);
}

PERFTKIT_HD_INLINE bool holds(std::uint64_t first_word, int depth, bool wide) {
  return StatsEntryBits::depth_of(first_word) == depth && StatsEntryBits::wide_of(first_word) == wide;
}

// Payload first, check last: a reader that sees part of either fails the check.
PERFTKIT_HD_INLINE void write(SubtreeBucket& bucket, int slot, std::uint64_t print, const std::uint64_t* payload,
                              int n) {
  std::uint64_t* entry = bucket.word + 4 * slot;
  for (int i = 0; i < n; ++i) detail::store_word(&entry[1 + i], payload[i]);
  detail::store_word(&entry[0], check(print, payload, n));
}

// The first slot's entry copied into the second, payload first and check last, as write()
// does: a copy torn by a store into either slot fails its check.
PERFTKIT_HD_INLINE void move_first_to_second(SubtreeBucket& bucket) {
  for (int i = 1; i < 4; ++i) detail::store_word(&bucket.word[4 + i], detail::load_word(&bucket.word[i]));
  detail::store_word(&bucket.word[4], detail::load_word(&bucket.word[0]));
}

}  // namespace stats_entry

// The bucket a probe or store of the key touches (to prefetch it).
PERFTKIT_HD_INLINE SubtreeBucket& stats_bucket(const StatsTableView& table, const PositionKey& key) {
  return table.memory[detail::mul_high(key.lo, table.buckets)];
}

// The stored statistics of the subtree of `depth` plies under the stats key (a
// stats_subtree_key), if an entry verifies against the key and the depth.
PERFTKIT_HD_INLINE bool probe_stats(const StatsTableView& table, const PositionKey& key, int depth, LeafStats& stats) {
  using namespace stats_entry;
  const SubtreeBucket& bucket = stats_bucket(table, key);
  std::uint64_t w[8];
  for (int i = 0; i < 8; ++i) w[i] = detail::load_word(&bucket.word[i]);
  const std::uint64_t print = fingerprint(key);
  // The header first (cheap), then the check word of an entry of the right depth and width.
  for (int slot = 0; slot < 2; ++slot) {
    const std::uint64_t* entry = w + 4 * slot;
    if (holds(entry[1], depth, false) && entry[0] == check(print, entry + 1, StatsEntryBits::NARROW_WORDS)) {
      stats = StatsEntryBits::decode(entry + 1);
      return true;
    }
  }
  if (holds(w[1], depth, true) && w[0] == check(print, w + 1, StatsEntryBits::WIDE_WORDS)) {
    stats = StatsEntryBits::decode(w + 1);
    return true;
  }
  return false;
}

// Stores the statistics of the subtree of `depth` (1..255) plies under the stats key.
// A narrow entry takes the first slot when it is at least as deep as the slot's entry, and a
// narrow entry there moves to the second (always replaced): the deep keep their place, and of
// entries as deep (most are two plies) the last two stored stay, where the first slot alone
// had held the last one. A shallower entry takes the second slot. A wide one takes the bucket
// when no entry there is deeper. An entry over the wide size is not kept. Returns whether
// it was stored.
PERFTKIT_HD_INLINE bool store_stats(const StatsTableView& table, const PositionKey& key, int depth,
                                    const LeafStats& stats) {
  using namespace stats_entry;
  const int size = StatsEntryBits::size(stats);
  if (size > StatsEntryBits::WIDE_BITS) return false;
  const bool wide = size > StatsEntryBits::NARROW_BITS;
  SubtreeBucket& bucket = stats_bucket(table, key);
  const std::uint64_t first = detail::load_word(&bucket.word[1]), second = detail::load_word(&bucket.word[5]);
  const int first_depth = StatsEntryBits::depth_of(first);
  const StatsEntryBits e = StatsEntryBits::encode(stats, depth, wide);
  const std::uint64_t print = fingerprint(key);
  if (wide) {
    const int deepest = StatsEntryBits::wide_of(first)                   ? first_depth
                        : first_depth > StatsEntryBits::depth_of(second) ? first_depth
                                                                         : StatsEntryBits::depth_of(second);
    if (depth < deepest) return false;
    write(bucket, 0, print, e.word, StatsEntryBits::WIDE_WORDS);
    return true;
  }
  if (depth < first_depth) {
    if (StatsEntryBits::wide_of(first)) return false;  // a deeper wide entry stays
    write(bucket, 1, print, e.word, StatsEntryBits::NARROW_WORDS);
    return true;
  }
  if (first_depth != 0 && !StatsEntryBits::wide_of(first)) move_first_to_second(bucket);
  write(bucket, 0, print, e.word, StatsEntryBits::NARROW_WORDS);
  return true;
}

PERFTKIT_ISA_END
}  // namespace perftkit
