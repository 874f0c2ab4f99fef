// Attack tables: leaper attacks, squares between and lines through two squares, and
// slider attacks indexed by magic multiplication (portable, the GPU path) or by PEXT
// (host CPUs with BMI2). The host owns one table set; the CUDA backend uploads a copy
// built for magic indexing into device memory (see cuda/device_tables.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "perftkit/bitboard.hpp"
#include "perftkit/magics.hpp"
#include "perftkit/slider_geometry.hpp"

namespace perftkit {

struct SliderEntry {
  Bitboard mask;         // relevant occupancy: the rays without their edge squares
  Bitboard magic;        // multiplier for the portable index
  std::uint32_t offset;  // first entry of this square in AttackTables::slider
  std::uint32_t shift;   // 64 - popcount(mask)
};

inline constexpr std::size_t ROOK_TABLE_SIZE = 102400;  // sum over squares of 2^popcount(mask)
inline constexpr std::size_t BISHOP_TABLE_SIZE = 5248;

struct AttackTables {
  Bitboard pawn[COLOR_NB][64];
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
  Bitboard line[64][64];     // the whole line through two aligned squares, else 0
  Bitboard rook_rays[64];    // rook attacks on an empty board
  Bitboard bishop_rays[64];  // bishop attacks on an empty board
  SliderEntry rook[64];
  SliderEntry bishop[64];
  bool pext_indexed;  // slider entries ordered by PEXT instead of magic products
  Bitboard slider[ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE];
};

namespace detail {
PERFTKIT_ISA_BEGIN

// Every subset of each square's relevant mask with its attacks, in the layout's order. The
// subsets are enumerated in PEXT order (Carry-Rippler counts through the mask's bits), and a
// ray's attacks stop at its nearest blocker: the first set bit of the blockers for a ray
// towards higher squares, the last for one towards lower squares; what lies beyond it is the
// blocker's own ray in that direction. Equal to ray_attacks() on every entry (tested), at a
// few operations an entry instead of a walk: the tables are built at every start.
inline void fill_slider(SliderEntry* entries, Bitboard* table, const int (&dirs)[4][2], const std::uint64_t* magics,
                        std::uint32_t& offset, bool use_pext) {
  Bitboard rays[4][64];
  bool rising[4];
  for (int d = 0; d < 4; ++d) {
    rising[d] = toward_higher_squares(dirs[d]);
    for (int sq = 0; sq < 64; ++sq) rays[d][sq] = direction_ray(dirs[d], sq);
  }
  for (int sq = 0; sq < 64; ++sq) {
    SliderEntry& e = entries[sq];
    e.mask = relevant_mask(dirs, sq);
    e.magic = magics[sq];
    e.shift = std::uint32_t(64 - popcount(e.mask));
    e.offset = offset;
    std::uint64_t i = 0;
    Bitboard occ = 0;
    do {
      Bitboard attacks = 0;
      for (int d = 0; d < 4; ++d) {
        const Bitboard blockers = rays[d][sq] & occ;
        attacks |= blockers ? rays[d][sq] ^ rays[d][rising[d] ? lsb(blockers) : msb(blockers)] : rays[d][sq];
      }
      const std::uint64_t index = use_pext ? i : ((occ * e.magic) >> e.shift);
      table[offset + index] = attacks;
      ++i;
      occ = (occ - e.mask) & e.mask;
    } while (occ);
    offset += std::uint32_t(i);
  }
}

PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

// Fills every table; use_pext selects the slider index order (PEXT or magic product).
inline void build_attack_tables(AttackTables& t, bool use_pext) {
  constexpr int KNIGHT_STEPS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int KING_STEPS[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int WHITE_PAWN[2][2] = {{-1, 1}, {1, 1}};
  constexpr int BLACK_PAWN[2][2] = {{-1, -1}, {1, -1}};
  for (int sq = 0; sq < 64; ++sq) {
    t.knight[sq] = detail::leaper_attacks(sq, KNIGHT_STEPS, 8);
    t.king[sq] = detail::leaper_attacks(sq, KING_STEPS, 8);
    t.pawn[WHITE][sq] = detail::leaper_attacks(sq, WHITE_PAWN, 2);
    t.pawn[BLACK][sq] = detail::leaper_attacks(sq, BLACK_PAWN, 2);
    t.rook_rays[sq] = detail::ray_attacks(detail::ROOK_DIRS, sq, 0);
    t.bishop_rays[sq] = detail::ray_attacks(detail::BISHOP_DIRS, sq, 0);
  }
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      t.between[a][b] = t.line[a][b] = 0;
      if (a == b) continue;
      for (const auto* dirs : {&detail::ROOK_DIRS, &detail::BISHOP_DIRS}) {
        const Bitboard from_a = detail::ray_attacks(*dirs, a, 0);
        if (!(from_a & square_bb(b))) continue;
        t.line[a][b] = (from_a & detail::ray_attacks(*dirs, b, 0)) | square_bb(a) | square_bb(b);
        t.between[a][b] = detail::ray_attacks(*dirs, a, square_bb(b)) & detail::ray_attacks(*dirs, b, square_bb(a));
      }
    }
  std::uint32_t offset = 0;
  t.pext_indexed = use_pext;
  detail::fill_slider(t.rook, t.slider, detail::ROOK_DIRS, ROOK_MAGICS, offset, use_pext);
  detail::fill_slider(t.bishop, t.slider, detail::BISHOP_DIRS, BISHOP_MAGICS, offset, use_pext);
}

PERFTKIT_ISA_END
namespace detail {
// The host's tables, one set per slider layout: a unit compiled with BMI2 reads the
// PEXT-ordered one, a unit without reads the magic-ordered one. Units of one program may be
// compiled with different flags (a consumer of the installed library built for plain x86-64,
// the CPU kernels built per instruction set), and each reads the layout it indexes by. The
// storage is plain zeroed memory, shared by every unit; a builder per layout fills it before
// main().
template <bool PextIndexed>
inline AttackTables host_attack_table_storage{};
PERFTKIT_ISA_BEGIN
template <bool PextIndexed>
struct HostAttackTableBuilder {
  // Units of other instruction sets have builders of their own: the first one builds.
  HostAttackTableBuilder() {
    AttackTables& tables = host_attack_table_storage<PextIndexed>;
    if (tables.king[0] == 0) build_attack_tables(tables, PextIndexed);
  }
};
template <bool PextIndexed>
inline const HostAttackTableBuilder<PextIndexed> host_attack_table_builder{};
PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

#if defined(__CUDACC__)
PERFTKIT_ISA_END
namespace detail {
PERFTKIT_ISA_BEGIN
// One copy per CUDA translation unit; cuda/device_tables.cuh uploads it before any launch.
static __device__ AttackTables device_attack_tables;
PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN
#endif

// The tables this unit indexes. A unit that names the builder runs it at start-up. A CPU
// kernel built for an instruction set the machine may lack (PERFTKIT_DISPATCHED_UNIT) must
// run nothing before it is chosen: it reads the PEXT-ordered tables, which the portable code
// that dispatches to it builds (host/perft/cpu_kernels.cpp).
PERFTKIT_HD_INLINE const AttackTables& attack_tables() {
#if PERFTKIT_DEVICE_PASS
  return detail::device_attack_tables;
#elif defined(PERFTKIT_DISPATCHED_UNIT)
  static_assert(PERFTKIT_HAS_PEXT, "the dispatched CPU kernels index sliders by PEXT");
  return detail::host_attack_table_storage<true>;
#else
  static_cast<void>(&detail::host_attack_table_builder<PERFTKIT_HAS_PEXT != 0>);
  return detail::host_attack_table_storage<PERFTKIT_HAS_PEXT != 0>;
#endif
}

// One entry of the attack tables. The device reads them through the read-only data cache
// (they never change during a kernel); the host reads them plainly.
template <typename T>
PERFTKIT_HD_INLINE T read_table(const T& entry) {
#if PERFTKIT_DEVICE_PASS
  return __ldg(&entry);
#else
  return entry;
#endif
}

PERFTKIT_HD_INLINE Bitboard slider_lookup(const SliderEntry& e, Bitboard occ) {
#if PERFTKIT_HAS_PEXT
  return attack_tables().slider[e.offset + pext(occ, e.mask)];
#else
  const std::uint32_t index =
      read_table(e.offset) + std::uint32_t(((occ & read_table(e.mask)) * read_table(e.magic)) >> read_table(e.shift));
  return read_table(attack_tables().slider[index]);
#endif
}

PERFTKIT_HD_INLINE Bitboard rook_attacks(Square s, Bitboard occ) { return slider_lookup(attack_tables().rook[s], occ); }
PERFTKIT_HD_INLINE Bitboard bishop_attacks(Square s, Bitboard occ) {
  return slider_lookup(attack_tables().bishop[s], occ);
}
PERFTKIT_HD_INLINE Bitboard queen_attacks(Square s, Bitboard occ) {
  return rook_attacks(s, occ) | bishop_attacks(s, occ);
}
PERFTKIT_HD_INLINE Bitboard rook_rays(Square s) { return read_table(attack_tables().rook_rays[s]); }
PERFTKIT_HD_INLINE Bitboard bishop_rays(Square s) { return read_table(attack_tables().bishop_rays[s]); }
PERFTKIT_HD_INLINE Bitboard knight_attacks(Square s) { return read_table(attack_tables().knight[s]); }
PERFTKIT_HD_INLINE Bitboard king_attacks(Square s) { return read_table(attack_tables().king[s]); }
PERFTKIT_HD_INLINE Bitboard pawn_attacks(Color c, Square s) { return read_table(attack_tables().pawn[c][s]); }
PERFTKIT_HD_INLINE Bitboard between_bb(Square a, Square b) { return read_table(attack_tables().between[a][b]); }
PERFTKIT_HD_INLINE Bitboard line_bb(Square a, Square b) { return read_table(attack_tables().line[a][b]); }
PERFTKIT_HD_INLINE bool aligned(Square a, Square b, Square c) { return (line_bb(a, b) & square_bb(c)) != 0; }

PERFTKIT_ISA_END
}  // namespace perftkit
