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
//   - its form (2 bits): small, narrow or wide (0: no entry begins there);
//   - narrow and wide: the depth (8 bits);
//   - which counters are not zero (a bit each: all STAT_FIELD_NB, or a small entry's nine);
//   - each counter that is not, in field order: its bit length L - 1 (6 bits, a small
//     entry's 4), then its L - 1 low bits (the top bit is 1 by definition, and left out).
// A small entry is a two-ply subtree of 64 bits whose counters past checkmates are zero: a
// check and 1 word, four to a 64-byte bucket. An entry of at most 192 bits is narrow: a check
// and 3 words, two to a bucket. One of at most 448 bits is wide: a check and 7 words, a
// bucket of its own. A longer one (every counter in the tens of millions: a subtree far
// above the leaves) is not kept: a miss later, never a wrong count.
//
// The check word is a 64-bit fingerprint of the whole key mixed with a hash of every payload
// word and of the payload's length, so a slot torn by a concurrent store, or overwritten, or
// read as the wrong form, reads as a miss.
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

// How an entry's counters are written: the first payload word's low two bits say which form
// the entry takes (0: an empty slot), then a header, then which of the first `fields`
// counters are not zero (a bit each), and for each of those its bit length L - 1
// (length_bits) and its L - 1 low bits.
struct StatsEntryLayout {
  int header_bits;  // the form included
  int fields;
  int length_bits;
};

// The bits of one entry's payload, lowest bit of word[0] first.
struct StatsEntryBits {
  enum Form : int { EMPTY, SMALL, NARROW, WIDE };
  static constexpr int FORM_BITS = 2, DEPTH_BITS = 8;
  static constexpr int SMALL_WORDS = 1, NARROW_WORDS = 3, WIDE_WORDS = 7;
  static constexpr int SMALL_BITS = SMALL_WORDS * 64, NARROW_BITS = NARROW_WORDS * 64, WIDE_BITS = WIDE_WORDS * 64;
  // Narrow and wide: the depth in the header, every counter, lengths up to 64.
  static constexpr StatsEntryLayout FULL_LAYOUT{FORM_BITS + DEPTH_BITS, STAT_FIELD_NB, 6};
  // Small: two plies deep (no depth written), the counters up to CHECKMATES only (the rest
  // zero), each under 2^16 (as every count of a two-ply subtree is: 218^2 < 2^16).
  static constexpr int SMALL_DEPTH = 2, SMALL_FIELDS = CHECKMATES + 1, SMALL_LENGTH_BITS = 4;
  static constexpr StatsEntryLayout SMALL_LAYOUT{FORM_BITS, SMALL_FIELDS, SMALL_LENGTH_BITS};

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

  // Bits an entry of these counters takes in the layout. (Without branches: a zero counter
  // takes none, and its bit width is 0.)
  PERFTKIT_HD_INLINE static int size(const LeafStats& stats, const StatsEntryLayout& layout = FULL_LAYOUT) {
    int n = layout.header_bits + layout.fields;
    for (int f = 0; f < layout.fields; ++f)
      n += int(std::bit_width(stats.count[f])) + (stats.count[f] ? layout.length_bits - 1 : 0);
    return n;
  }

  // Whether the counters of a subtree `depth` plies deep fit a small entry: two plies, no
  // counter past the small layout's, none of 2^16 or more, and 64 bits in all.
  PERFTKIT_HD_INLINE static bool fits_small(const LeafStats& stats, int depth) {
    if (depth != SMALL_DEPTH) return false;
    std::uint64_t rest = 0, any = 0;
    for (int f = SMALL_FIELDS; f < STAT_FIELD_NB; ++f) rest |= stats.count[f];
    for (int f = 0; f < SMALL_FIELDS; ++f) any |= stats.count[f];
    return rest == 0 && any >> (1 << SMALL_LENGTH_BITS) == 0 && size(stats, SMALL_LAYOUT) <= SMALL_BITS;
  }

  // The counters that are not zero, a bit each in field order.
  PERFTKIT_HD_INLINE static std::uint64_t nonzero_fields(const LeafStats& stats, int fields) {
    std::uint64_t nonzero = 0;
    for (int f = 0; f < fields; ++f) nonzero |= std::uint64_t(stats.count[f] != 0) << f;
    return nonzero;
  }

  // The entry of `stats` in this form: small (the caller has checked fits_small()), or narrow
  // or wide at `depth` (1..255; the caller has checked its size against the form's).
  PERFTKIT_HD_INLINE static StatsEntryBits encode(const LeafStats& stats, int depth, Form form) {
    StatsEntryBits e;
    const StatsEntryLayout& layout = form == SMALL ? SMALL_LAYOUT : FULL_LAYOUT;
    e.put(std::uint64_t(form), FORM_BITS);
    if (form != SMALL) e.put(std::uint64_t(depth), DEPTH_BITS);
    const std::uint64_t nonzero = nonzero_fields(stats, layout.fields);
    e.put(nonzero, layout.fields);
    // Only the counters that are not zero (most are zero), one set bit at a time.
    for (std::uint64_t rest = nonzero; rest; rest &= rest - 1) {
      const std::uint64_t v = stats.count[std::countr_zero(rest)];
      const int length = int(std::bit_width(v));
      e.put(std::uint64_t(length - 1), layout.length_bits);
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

  // The counters of a payload whose check has verified (so its form and lengths are its own).
  PERFTKIT_HD_INLINE static LeafStats decode(const std::uint64_t* words) {
    const StatsEntryLayout& layout = form_of(words[0]) == SMALL ? SMALL_LAYOUT : FULL_LAYOUT;
    int at = layout.header_bits;
    const std::uint64_t nonzero = get(words, at, layout.fields);
    LeafStats stats{};
    for (std::uint64_t rest = nonzero; rest; rest &= rest - 1) {
      const int top = int(get(words, at, layout.length_bits));
      stats.count[std::countr_zero(rest)] = std::uint64_t(1) << top | get(words, at, top);
    }
    return stats;
  }

  PERFTKIT_HD_INLINE static Form form_of(std::uint64_t first_word) { return Form(first_word & 3); }
  // The depth of the entry whose payload begins with this word (0: none).
  PERFTKIT_HD_INLINE static int depth_of(std::uint64_t first_word) {
    const Form form = form_of(first_word);
    return form == SMALL ? SMALL_DEPTH : form == EMPTY ? 0 : int(first_word >> FORM_BITS & 0xFF);
  }
  PERFTKIT_HD_INLINE static int words_of(Form form) {
    return form == SMALL ? SMALL_WORDS : form == NARROW ? NARROW_WORDS : WIDE_WORDS;
  }
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

// The check word of a payload of n (1, 3 or 7) words under a key of this fingerprint: the words
// multiplied in salted pairs (the last one with the length, so that an entry never verifies
// as one of another form), the products summed and finished. The pairs are
// independent, so the multiplications overlap.
PERFTKIT_HD_INLINE std::uint64_t check(std::uint64_t print, const std::uint64_t* payload, int n) {
  constexpr std::uint64_t SALT[8] = {0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL, 0x8EBC6AF09C88C6E3ULL,
                                     0x589965CC75374CC3ULL, 0x1D8E4E27C47D124FULL, 0x9E3779B97F4A7C15ULL,
                                     0xD1B54A32D192ED03ULL, 0xBF58476D1CE4E5B9ULL};
  std::uint64_t sum = detail::fold_multiply(payload[n - 1] ^ SALT[n - 1], std::uint64_t(n) ^ SALT[7]);
  for (int i = 0; i + 1 < n; i += 2) sum += detail::fold_multiply(payload[i] ^ SALT[i], payload[i + 1] ^ SALT[i + 1]);
  return print ^ detail::mix64(sum);
}

// An entry of `words` payload words written at word `at` of the bucket: payload first, check
// last, so that a reader that sees part of either fails the check.
PERFTKIT_HD_INLINE void write(SubtreeBucket& bucket, int at, std::uint64_t print, const std::uint64_t* payload,
                              int words) {
  std::uint64_t* entry = bucket.word + at;
  for (int i = 0; i < words; ++i) detail::store_word(&entry[1 + i], payload[i]);
  detail::store_word(&entry[0], check(print, payload, words));
}

// The `words` words from word `from` copied to word `to`, payload first and check last, as
// write() does: a copy torn by a store into either place fails its check.
PERFTKIT_HD_INLINE void copy(SubtreeBucket& bucket, int from, int to, int words) {
  for (int i = 1; i < words; ++i) detail::store_word(&bucket.word[to + i], detail::load_word(&bucket.word[from + i]));
  detail::store_word(&bucket.word[to], detail::load_word(&bucket.word[from]));
}

// The word pair at `at` emptied (no entry begins there).
PERFTKIT_HD_INLINE void empty_pair(SubtreeBucket& bucket, int at) {
  detail::store_word(&bucket.word[at + 1], std::uint64_t(0));
  detail::store_word(&bucket.word[at], std::uint64_t(0));
}

// Small unit u (words 2u and 2u + 1) copied to unit u + 1 if it holds a small entry, else
// unit u + 1 emptied (so that no stale half of a larger entry is read there).
PERFTKIT_HD_INLINE void shift_small_unit(SubtreeBucket& bucket, int u) {
  if (StatsEntryBits::form_of(detail::load_word(&bucket.word[2 * u + 1])) == StatsEntryBits::SMALL) {
    copy(bucket, 2 * u, 2 * u + 2, 2);
  } else {
    empty_pair(bucket, 2 * u + 2);
  }
}

// The depth of a half of a bucket, from its first and third words (the headers of its two
// word pairs): its narrow or wide entry's, or 2 where it holds a small one, or 0.
PERFTKIT_HD_INLINE int half_depth(std::uint64_t first, std::uint64_t third) {
  const StatsEntryBits::Form form = StatsEntryBits::form_of(first);
  if (form == StatsEntryBits::NARROW || form == StatsEntryBits::WIDE) return StatsEntryBits::depth_of(first);
  return form == StatsEntryBits::SMALL || StatsEntryBits::form_of(third) == StatsEntryBits::SMALL
             ? StatsEntryBits::SMALL_DEPTH
             : 0;
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
  using Bits = StatsEntryBits;
  const SubtreeBucket& bucket = stats_bucket(table, key);
  std::uint64_t w[8];
  for (int i = 0; i < 8; ++i) w[i] = detail::load_word(&bucket.word[i]);
  const std::uint64_t print = fingerprint(key);
  // The header first (cheap), then the check word of an entry of the right depth and form.
  const auto verifies = [&](int at, Bits::Form form) {
    const std::uint64_t header = w[at + 1];
    return Bits::form_of(header) == form && Bits::depth_of(header) == depth &&
           w[at] == check(print, w + at + 1, Bits::words_of(form));
  };
  const auto found = [&](int at) {
    stats = Bits::decode(w + at + 1);
    return true;
  };
  if (depth == Bits::SMALL_DEPTH)
    for (int at = 0; at < 8; at += 2)
      if (verifies(at, Bits::SMALL)) return found(at);
  for (int at = 0; at < 8; at += 4)
    if (verifies(at, Bits::NARROW)) return found(at);
  if (verifies(0, Bits::WIDE)) return found(0);
  return false;
}

// Stores the statistics of the subtree of `depth` (1..255) plies under the stats key, in the
// smallest form it fits. A bucket is two halves (words 0-3 and 4-7), a narrow entry each, or
// one wide entry, or up to two small ones in a half (a word pair each).
// - A narrow entry takes the first half when it is at least as deep as what is there, which
//   moves to the second half (always replaced): the deep keep their place, and of entries as
//   deep the last ones stored stay. A shallower entry takes the second half.
// - A small entry (two plies) goes first in line: in the whole bucket where nothing there is
//   deeper than two plies (the four small entries move on by one, a narrow one in the first
//   half to the second), else in the second half (its two move on by one).
// - A wide entry takes the bucket when nothing there is deeper.
// An entry over the wide size is not kept. Returns whether it was stored.
PERFTKIT_HD_INLINE bool store_stats(const StatsTableView& table, const PositionKey& key, int depth,
                                    const LeafStats& stats) {
  using namespace stats_entry;
  using Bits = StatsEntryBits;
  Bits::Form form = Bits::SMALL;
  if (!Bits::fits_small(stats, depth)) {
    const int size = Bits::size(stats);
    if (size > Bits::WIDE_BITS) return false;
    form = size > Bits::NARROW_BITS ? Bits::WIDE : Bits::NARROW;
  }
  SubtreeBucket& bucket = stats_bucket(table, key);
  std::uint64_t w[8];
  for (int i = 1; i < 8; i += 2) w[i] = detail::load_word(&bucket.word[i]);
  const Bits::Form first_form = Bits::form_of(w[1]);
  const bool first_wide = first_form == Bits::WIDE;
  const int first_depth = half_depth(w[1], w[3]);
  const int second_depth = half_depth(w[5], w[7]);
  const int deepest = first_wide || first_depth > second_depth ? first_depth : second_depth;
  const Bits e = Bits::encode(stats, depth, form);
  const std::uint64_t print = fingerprint(key);
  if (form == Bits::WIDE) {
    if (depth < deepest) return false;
    write(bucket, 0, print, e.word, Bits::WIDE_WORDS);
    return true;
  }
  if (first_wide && depth < first_depth) return false;  // a deeper wide entry stays
  if (form == Bits::NARROW) {
    if (depth < first_depth) {
      write(bucket, 4, print, e.word, Bits::NARROW_WORDS);
      return true;
    }
    if (first_form != Bits::EMPTY && !first_wide) copy(bucket, 0, 4, 4);
    write(bucket, 0, print, e.word, Bits::NARROW_WORDS);
    return true;
  }
  if (depth < first_depth) {  // the second half's small entries move on
    shift_small_unit(bucket, 2);
    write(bucket, 4, print, e.word, Bits::SMALL_WORDS);
    return true;
  }
  if (first_form == Bits::NARROW) {  // a narrow entry as deep moves to the second half
    copy(bucket, 0, 4, 4);
    empty_pair(bucket, 2);
  } else {
    for (int u = 2; u >= 0; --u) shift_small_unit(bucket, u);
  }
  write(bucket, 0, print, e.word, Bits::SMALL_WORDS);
  return true;
}

PERFTKIT_ISA_END
}  // namespace perftkit
