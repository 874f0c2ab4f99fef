// Slider geometry walked square by square: the slow, obviously correct reference from
// which the attack tables (and the magic finder) are built.
#pragma once

#include <cstdint>

#include "perftkit/bitboard.hpp"

namespace perftkit {
namespace detail {
PERFTKIT_ISA_BEGIN

inline constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
inline constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Attacks of a slider on an otherwise empty board but for occ, walked ray by ray.
constexpr Bitboard ray_attacks(const int (&dirs)[4][2], int sq, Bitboard occ) {
  Bitboard attacks = 0;
  for (const auto& d : dirs) {
    int f = sq % 8 + d[0], r = sq / 8 + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      attacks |= square_bb(r * 8 + f);
      if (occ & square_bb(r * 8 + f)) break;
      f += d[0];
      r += d[1];
    }
  }
  return attacks;
}

// The squares from sq to the board's edge in direction d, sq itself excluded.
constexpr Bitboard direction_ray(const int (&d)[2], int sq) {
  Bitboard ray = 0;
  for (int f = sq % 8 + d[0], r = sq / 8 + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += d[0], r += d[1])
    ray |= square_bb(r * 8 + f);
  return ray;
}

// Whether direction d leads to higher square numbers (up the board, or along a rank to the
// right): then a ray's nearest square is its lowest bit, else its highest.
constexpr bool toward_higher_squares(const int (&d)[2]) { return d[1] > 0 || (d[1] == 0 && d[0] > 0); }

constexpr Bitboard relevant_mask(const int (&dirs)[4][2], int sq) {
  Bitboard mask = 0;
  for (const auto& d : dirs) {
    int f = sq % 8 + d[0], r = sq / 8 + d[1];
    while (f + d[0] >= 0 && f + d[0] < 8 && r + d[1] >= 0 && r + d[1] < 8) {
      mask |= square_bb(r * 8 + f);
      f += d[0];
      r += d[1];
    }
  }
  return mask;
}

// Scatter the low bits of index over the set bits of mask (inverse of PEXT).
constexpr Bitboard deposit(std::uint64_t index, Bitboard mask) {
  Bitboard result = 0;
  for (int bit = 0; mask; ++bit) {
    const Bitboard low = mask & (~mask + 1);
    if (index & (std::uint64_t(1) << bit)) result |= low;
    mask &= mask - 1;
  }
  return result;
}

constexpr Bitboard leaper_attacks(int sq, const int (*steps)[2], int count) {
  Bitboard attacks = 0;
  for (int i = 0; i < count; ++i) {
    const int f = sq % 8 + steps[i][0], r = sq / 8 + steps[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks |= square_bb(r * 8 + f);
  }
  return attacks;
}

PERFTKIT_ISA_END
}  // namespace detail
}  // namespace perftkit
