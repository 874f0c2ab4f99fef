// 128-bit keys of positions for transposition tables: two independent 64-bit lanes, each a
// sum of mixed board words. A seed selects an independent key set, so a hashed result can
// be re-derived with other keys (--seed, --cross-check).
#pragma once

#include <cstdint>

#include "perftkit/position.hpp"

namespace perftkit {

struct PositionKey {
  std::uint64_t lo;
  std::uint64_t hi;
  bool operator==(const PositionKey&) const = default;
};

namespace detail {
PERFTKIT_ISA_BEGIN

// A bijective 64-bit finaliser (xorshift-multiply); neighbouring inputs land far apart.
PERFTKIT_HD_INLINE constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

// Both halves of the 128-bit product folded together: every input bit reaches most output
// bits with one multiplication (the core step of the wyhash family).
PERFTKIT_HD_INLINE std::uint64_t fold_multiply(std::uint64_t a, std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return (a * b) ^ __umul64hi(a, b);
#else
  __extension__ const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
#endif
}

PERFTKIT_ISA_END
}  // namespace detail

inline constexpr int KEY_WORDS = 9;
inline constexpr int KEY_SALTS = KEY_WORDS + 2;  // one per word, one to pair with the odd word, one to finish

// The per-word salts of both lanes for one seed; build once, pass to position_key().
struct KeySet {
  std::uint64_t salt[2][KEY_SALTS];

  PERFTKIT_HD_INLINE constexpr explicit KeySet(std::uint64_t seed) : salt{} {
    for (int lane = 0; lane < 2; ++lane)
      for (int word = 0; word < KEY_SALTS; ++word)
        salt[lane][word] =
            detail::mix64(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(lane * 16 + word + 1) * 0xD1B54A32D192ED03ULL);
  }
};

namespace detail {
PERFTKIT_ISA_BEGIN

// One 64-bit lane: salted words multiplied in pairs and folded, summed, then finished.
PERFTKIT_HD_INLINE std::uint64_t key_lane(const std::uint64_t (&words)[KEY_WORDS],
                                          const std::uint64_t (&salt)[KEY_SALTS]) {
  std::uint64_t sum = fold_multiply(words[8] ^ salt[8], salt[9]);
  for (int i = 0; i < 8; i += 2) sum += fold_multiply(words[i] ^ salt[i], words[i + 1] ^ salt[i + 1]);
  return mix64(sum ^ salt[10]);
}

PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

// Key of everything that decides the legal move tree below pos: the boards, castling
// rights, en passant square and side to move; the clocks are left out. Two lanes with
// independent salts make the 128 bits.
PERFTKIT_HD_INLINE PositionKey position_key(const Position& pos, const KeySet& keys) {
  const std::uint64_t words[KEY_WORDS] = {
      pos.by_color[WHITE], pos.by_color[BLACK], pos.pawns,
      pos.knights,         pos.diagonal,        pos.orthogonal,
      pos.kings,           pos.castling_rooks,  std::uint64_t(pos.ep_square) | std::uint64_t(pos.side_to_move) << 8};
  return PositionKey{detail::key_lane(words, keys.salt[0]), detail::key_lane(words, keys.salt[1])};
}

PERFTKIT_ISA_END
}  // namespace perftkit
