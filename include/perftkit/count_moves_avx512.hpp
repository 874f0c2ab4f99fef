// Legal move counts of eight positions at once, on host CPUs with AVX-512 (F, DQ and
// VPOPCNTDQ). Each 64-bit lane holds one position's bitboard; diagonal slider rays are
// occluded fills (Kogge-Stone), orthogonal ones the same or (with AVX-512 BW and GFNI)
// subtractions, so no attack table is read. The rules are generate_legal()'s: checks
// and pins from rays out of the king, a check mask, pinned pieces moving only along their
// pin's axis, a king that may not step onto a square attacked with itself lifted, castling
// through empty, unattacked squares, an en-passant capture that leaves no check. The rare
// castling lanes these lanes cannot decide go to the scalar generate_castling().
#pragma once

#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VPOPCNTDQ__) && !defined(__CUDACC__)
#define PERFTKIT_HAS_AVX512_COUNT 1

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "perftkit/movegen.hpp"
#include "perftkit/slider_geometry.hpp"

namespace perftkit {
namespace avx512 {
PERFTKIT_ISA_BEGIN

using V = __m512i;

// (g++ and clang give __m512i lane-wise &, |, ~ and +; g++ 12's own and-not and
// reduction intrinsics trip -Wuninitialized inside its headers.)
PERFTKIT_FORCEINLINE V splat(Bitboard b) { return _mm512_set1_epi64(static_cast<long long>(b)); }
PERFTKIT_FORCEINLINE V and_not(V a, V b) { return a & ~b; }
PERFTKIT_FORCEINLINE V popcount(V a) { return _mm512_popcnt_epi64(a); }

// Every bit moved by a square offset D, bits that leave the board dropped, no edge mask.
// (Vector-extension shifts: g++ 12's shift intrinsics trip -Wuninitialized in its headers.)
template <int D>
PERFTKIT_FORCEINLINE V shift_raw(V b) {
  using Lanes64 = unsigned long long __attribute__((vector_size(64)));
  if constexpr (D > 0) return V(Lanes64(b) << D);
  else return V(Lanes64(b) >> -D);
}

// The squares a one-square step in direction D can land on (a step east never lands on
// the a-file).
template <int D>
constexpr Bitboard landing_squares() {
  if constexpr (D == 1 || D == 9 || D == -7) return ~FILE_A_BB;
  else if constexpr (D == -1 || D == -9 || D == 7) return ~FILE_H_BB;
  else return ALL_SQUARES;
}

template <int D>
PERFTKIT_FORCEINLINE V step(V b) {
  return shift_raw<D>(b) & splat(landing_squares<D>());
}

#if defined(__GFNI__) && defined(__AVX512BW__)
// Two board symmetries, one GF(2) affine instruction each: the mirror swaps files a and h
// (bit i of every byte with bit 7 - i), the anti-transpose swaps square (rank r, file f)
// with (rank 7 - f, file 7 - r). Each is its own inverse.
PERFTKIT_FORCEINLINE V mirror_files(V b) { return _mm512_gf2p8affine_epi64_epi8(b, splat(0x8040201008040201ULL), 0); }
PERFTKIT_FORCEINLINE V flip_anti_diagonal(V b) {
  return _mm512_gf2p8affine_epi64_epi8(splat(0x0102040810204080ULL), b, 0);
}

// Squares the sliders on gen (all on occupied squares) reach eastwards: subtracting a bit
// just east of each slider borrows through the empty squares up to the first occupied one
// (or the h-file, which stops every borrow inside its rank), and the xor keeps the squares
// the borrow changed. A slider's borrow ends before the next slider's begins.
PERFTKIT_FORCEINLINE V east_rays(V gen, V occ) {
  const V stops = occ | splat(FILE_H_BB);
  const V start = and_not(gen, splat(FILE_H_BB));
  return stops ^ (stops - (start + start));
}

// The four orthogonal directions as the east one, in a mirrored or anti-transposed frame:
// west is mirrored east, south is anti-transposed east, north is anti-transposed west.
template <int D>
PERFTKIT_FORCEINLINE V orthogonal_rays(V gen, V occ) {
  if constexpr (D == 1) return east_rays(gen, occ);
  else if constexpr (D == -1) return mirror_files(east_rays(mirror_files(gen), mirror_files(occ)));
  else if constexpr (D == -8) return flip_anti_diagonal(east_rays(flip_anti_diagonal(gen), flip_anti_diagonal(occ)));
  else return flip_anti_diagonal(orthogonal_rays<-1>(flip_anti_diagonal(gen), flip_anti_diagonal(occ)));
}
#endif

// Squares a slider on each bit of gen reaches in direction D: the empty squares and the
// first occupied one (Kogge-Stone occluded fill, then one more step). gen may lie anywhere,
// empty squares included.
template <int D>
PERFTKIT_FORCEINLINE V occluded_ray_attacks(V gen, V empty) {
  V pro = empty & splat(landing_squares<D>());
  gen = gen | (pro & shift_raw<D>(gen));
  pro = pro & shift_raw<D>(pro);
  gen = gen | (pro & shift_raw<2 * D>(gen));
  pro = pro & shift_raw<2 * D>(pro);
  gen = gen | (pro & shift_raw<4 * D>(gen));
  return step<D>(gen);
}

// occluded_ray_attacks() for gen on occupied squares (~empty), the orthogonal directions by
// subtraction where the instructions allow.
template <int D>
PERFTKIT_FORCEINLINE V ray_attacks(V gen, V empty) {
#if defined(__GFNI__) && defined(__AVX512BW__)
  if constexpr (D == 1 || D == -1 || D == 8 || D == -8) return orthogonal_rays<D>(gen, ~empty);
#endif
  return occluded_ray_attacks<D>(gen, empty);
}

// The squares from the lower to the higher of two single bits, both included (rank_span()
// of each lane).
PERFTKIT_FORCEINLINE V span_of(V a, V b) {
  // (the zero-masked forms: g++ 12's plain ones trip -Wmaybe-uninitialized in its headers)
  const V low = _mm512_maskz_min_epu64(0xFF, a, b), high = _mm512_maskz_max_epu64(0xFF, a, b);
  return (high - low) | high;
}

// The eight knight jumps from every bit of b, one set per jump (so that a square two
// knights reach counts twice).
struct KnightJumps {
  V jump[8];
  PERFTKIT_FORCEINLINE explicit KnightJumps(V b) {
    const V w1 = step<-1>(b), e1 = step<1>(b), w2 = step<-1>(w1), e2 = step<1>(e1);
    jump[0] = shift_raw<16>(w1), jump[1] = shift_raw<-16>(w1), jump[2] = shift_raw<16>(e1);
    jump[3] = shift_raw<-16>(e1), jump[4] = shift_raw<8>(w2), jump[5] = shift_raw<-8>(w2);
    jump[6] = shift_raw<8>(e2), jump[7] = shift_raw<-8>(e2);
  }
  PERFTKIT_FORCEINLINE V all() const {
    return jump[0] | jump[1] | jump[2] | jump[3] | jump[4] | jump[5] | jump[6] | jump[7];
  }
};

PERFTKIT_FORCEINLINE V king_reach(V b) {
  const V row = b | step<1>(b) | step<-1>(b);
  return and_not(row | shift_raw<8>(row) | shift_raw<-8>(row), b);
}

// Squares the pawns of colour C on b attack.
template <Color C>
PERFTKIT_FORCEINLINE V pawn_reach(V b) {
  return step<PAWN_CAPTURE_WEST<C>>(b) | step<PAWN_CAPTURE_EAST<C>>(b);
}

// Lines through the king: 0 file, 1 rank, 2 diagonal (a1-h8), 3 anti-diagonal (h1-a8).
template <int D>
constexpr int axis_of() {
  if constexpr (D == 8 || D == -8) return 0;
  else if constexpr (D == 1 || D == -1) return 1;
  else if constexpr (D == 9 || D == -9) return 2;
  else return 3;
}
template <int D>
constexpr bool orthogonal_direction() {
  return axis_of<D>() < 2;
}

// The squares from a square to the board's edge in direction D, built at compile time by
// the reference walker (each ray walked as all four of a slider's directions).
template <int D>
inline constexpr auto DIRECTION_RAYS = [] {
  constexpr int file_step = D == 1 || D == 9 || D == -7 ? 1 : D == -1 || D == -9 || D == 7 ? -1 : 0;
  constexpr int rank_step = D >= 7 ? 1 : D <= -7 ? -1 : 0;
  constexpr int dirs[4][2] = {
      {file_step, rank_step}, {file_step, rank_step}, {file_step, rank_step}, {file_step, rank_step}};
  std::array<Bitboard, 64> rays{};
  for (int s = 0; s < 64; ++s) rays[s] = detail::ray_attacks(dirs, s, 0);
  return rays;
}();

// Checks and pins seen from the side to move's king, eight positions at a time.
struct KingRays {
  V check_rays;  // for each slider check: the squares between and the checker
  V checks;      // number of checking sliders
  V pinned_on[4];

  // One direction: the first piece met is a checker if it is an enemy slider of the
  // right kind; if it is ours, it is pinned when the next piece met is one.
  // Lanes that share one king (shared_king, else SQ_NONE; siblings do) skip a direction
  // where no enemy slider of its kind stands on the king's empty-board ray.
  template <int D>
  PERFTKIT_FORCEINLINE void look(V king, Square shared_king, V empty, V ours, V their_sliders) {
    if (shared_king != SQ_NONE && !_mm512_test_epi64_mask(splat(DIRECTION_RAYS<D>[shared_king]), their_sliders)) return;
    const V ray = ray_attacks<D>(king, empty);
    const __mmask8 check = _mm512_test_epi64_mask(ray, their_sliders);
    check_rays = _mm512_mask_or_epi64(check_rays, check, check_rays, ray);
    checks = _mm512_mask_add_epi64(checks, check, checks, _mm512_set1_epi64(1));
    const V blocker = ray & ours;
    const __mmask8 pin = _mm512_test_epi64_mask(ray_attacks<D>(blocker, empty), their_sliders);
    pinned_on[axis_of<D>()] = _mm512_mask_or_epi64(pinned_on[axis_of<D>()], pin, pinned_on[axis_of<D>()], blocker);
  }
};

// Positions laid out one bitboard per lane; lanes past the batch hold empty boards.
struct Lanes {
  V us, them, pawns, knights, diagonal, orthogonal, kings, castling_rooks;
  V en_passant_square;        // the square behind a pawn that just moved two, or none
  __mmask8 live, en_passant;  // lanes that hold a position; lanes with an en-passant square
};

// Positions stored field by field, the lanes' own layout: eight consecutive positions load
// with plain vector loads, where positions side by side would need a gather per field.
template <int Capacity>
struct alignas(64) PositionLanes {
  static_assert(Capacity % 8 == 0, "whole blocks of eight, each field's block on its own cache line");
  Bitboard by_color[COLOR_NB][Capacity], pawns[Capacity], knights[Capacity], diagonal[Capacity], orthogonal[Capacity],
      kings[Capacity], castling_rooks[Capacity];
  std::uint64_t ep_square[Capacity];

  PERFTKIT_FORCEINLINE void set(int lane, const Position& p) {
    by_color[WHITE][lane] = p.by_color[WHITE], by_color[BLACK][lane] = p.by_color[BLACK];
    pawns[lane] = p.pawns, knights[lane] = p.knights, diagonal[lane] = p.diagonal, orthogonal[lane] = p.orthogonal;
    kings[lane] = p.kings, castling_rooks[lane] = p.castling_rooks, ep_square[lane] = p.ep_square;
  }
  // The lane's position as far as move counting goes (clocks left at zero).
  Position get(int lane, Color side_to_move) const {
    Position p{};
    p.by_color[WHITE] = by_color[WHITE][lane], p.by_color[BLACK] = by_color[BLACK][lane];
    p.pawns = pawns[lane], p.knights = knights[lane], p.diagonal = diagonal[lane], p.orthogonal = orthogonal[lane];
    p.kings = kings[lane], p.castling_rooks = castling_rooks[lane], p.ep_square = Square(ep_square[lane]);
    p.side_to_move = side_to_move;
    return p;
  }
};
using PositionBlock = PositionLanes<8>;

// Lanes first .. first + n - 1 of positions (first a multiple of eight, 1 <= n <= 8).
template <Color Us, int Capacity>
PERFTKIT_FORCEINLINE Lanes load_lanes(const PositionLanes<Capacity>& block, int first, int n) {
  const __mmask8 live = __mmask8((1u << n) - 1);
  const auto field = [live, first](const std::uint64_t* lanes) { return _mm512_maskz_load_epi64(live, lanes + first); };
  const V ep_square = field(block.ep_square);
  const __mmask8 en_passant = _mm512_mask_cmpneq_epi64_mask(live, ep_square, _mm512_set1_epi64(SQ_NONE));
  return Lanes{field(block.by_color[Us]),
               field(block.by_color[~Us]),
               field(block.pawns),
               field(block.knights),
               field(block.diagonal),
               field(block.orthogonal),
               field(block.kings),
               field(block.castling_rooks),
               _mm512_maskz_sllv_epi64(en_passant, _mm512_set1_epi64(1), ep_square),
               live,
               en_passant};
}

// Lanes (of `lanes`, which are not in check) where castling with `rook` (one square a lane,
// or none) to side Side is legal: generate_castling()'s rule, every square the king and rook
// cross or land on empty but for themselves, none the king crosses or lands on attacked.
// `attacked` holds the enemy's attacks with our king lifted; the castling rook is not lifted,
// which can change only a first-rank ray, so lanes with an enemy rook or queen on our first
// rank are not handed here.
template <Color Us, CastlingSide Side>
PERFTKIT_FORCEINLINE __mmask8 castling_legal(__mmask8 lanes, V king, V rook, V occ, V attacked) {
  lanes = _mm512_mask_test_epi64_mask(lanes, rook, rook);
  if (!lanes) return 0;
  const V king_path = span_of(king, splat(square_bb(castling_king_to(Us, Side))));
  const V rook_path = span_of(rook, splat(square_bb(castling_rook_to(Us, Side))));
  const V obstacles = and_not((king_path | rook_path) & occ, king | rook) | (king_path & attacked);
  return _mm512_mask_testn_epi64_mask(lanes, obstacles, obstacles);
}

// Legal castlings of each lane of castling_lanes (not in check, a rook with the right seen
// along the king's rank). Lanes the vector rule does not cover are moved to scalar_lanes, for
// generate_castling(): an enemy rook or queen on our first rank, or two rooks with the right
// on one side of the king (only an invented Chess960 FEN has them).
template <Color Us>
PERFTKIT_FORCEINLINE V castling_moves(__mmask8 castling_lanes, __mmask8& scalar_lanes, V king, V castling_rooks,
                                      V their_orthogonal, V occ, V attacked) {
  const V first_rank = splat(relative_rank_bb(Us, RANK_1));
  const V below_king = king - _mm512_set1_epi64(1);
  const V king_side = and_not(castling_rooks, king | below_king), queen_side = castling_rooks & below_king;
  scalar_lanes = _mm512_mask_test_epi64_mask(castling_lanes, their_orthogonal, first_rank) |
                 _mm512_mask_test_epi64_mask(castling_lanes, king_side, king_side - _mm512_set1_epi64(1)) |
                 _mm512_mask_test_epi64_mask(castling_lanes, queen_side, queen_side - _mm512_set1_epi64(1));
  const __mmask8 lanes = castling_lanes & ~scalar_lanes;
  const V one = _mm512_set1_epi64(1);
  return _mm512_maskz_mov_epi64(castling_legal<Us, KING_SIDE>(lanes, king, king_side, occ, attacked), one) +
         _mm512_maskz_mov_epi64(castling_legal<Us, QUEEN_SIDE>(lanes, king, queen_side, occ, attacked), one);
}

// What tally_lanes() hands each set of legal moves to. MoveTally adds up their number; a
// tally of its own kind (the statistics' StatsTally) may look at the sets themselves. Each
// set holds one move per bit, lane by lane.
struct MoveTally {
  V count = _mm512_setzero_si512();

  PERFTKIT_FORCEINLINE void king(V targets) { count = count + popcount(targets); }
  PERFTKIT_FORCEINLINE void castlings(V n) { count = count + n; }
  // The moves of the knights, one set per jump (a square two knights reach is in two sets).
  PERFTKIT_FORCEINLINE void knights(V /*movers*/, const KnightJumps& jumps, V targets) {
    for (const V& j : jumps.jump) count = count + popcount(j & targets);
  }
  // Moves of the sliders `movers` in direction D (`empty`: the board they move over).
  template <int D>
  PERFTKIT_FORCEINLINE void slider(V /*movers*/, V /*empty*/, V targets) {
    count = count + popcount(targets);
  }
  // Single and double pushes and captures to the west and east; those onto last_rank promote,
  // four moves each.
  PERFTKIT_FORCEINLINE void pawns(V pushes, V doubles, V west, V east, V last_rank) {
    const V promotions = popcount(pushes & last_rank) + popcount(west & last_rank) + popcount(east & last_rank);
    count = count + popcount(pushes) + popcount(doubles) + popcount(west) + popcount(east) + promotions + promotions +
            promotions;
  }
  PERFTKIT_FORCEINLINE void en_passant(V n) { count = count + n; }
};

// The moves of sliders in direction D: free ones and those pinned along D's own line.
template <int D, typename Tally>
PERFTKIT_FORCEINLINE void tally_slider(V sliders, const KingRays& rays, V pinned, V empty, V targets, Tally& tally) {
  const V movers = and_not(sliders, and_not(pinned, rays.pinned_on[axis_of<D>()]));
  tally.template slider<D>(movers, empty, ray_attacks<D>(movers, empty) & targets);
}

// Lanes where an enemy bishop, rook or queen sees the king with the board occupied by occ.
PERFTKIT_FORCEINLINE __mmask8 king_seen_by_sliders(__mmask8 lanes, V king, V occ, V their_orthogonal,
                                                   V their_diagonal) {
  const V empty = ~occ;
  const V orthogonal = ray_attacks<8>(king, empty) | ray_attacks<-8>(king, empty) | ray_attacks<1>(king, empty) |
                       ray_attacks<-1>(king, empty);
  const V diagonal = ray_attacks<9>(king, empty) | ray_attacks<-9>(king, empty) | ray_attacks<7>(king, empty) |
                     ray_attacks<-7>(king, empty);
  const V seen = (orthogonal & their_orthogonal) | (diagonal & their_diagonal);
  return _mm512_mask_test_epi64_mask(lanes, seen, seen);
}

// Legal en-passant captures of each lane with an en-passant square, by the capture of
// direction D (generate_non_king()'s rule): the capture is played out, and it is legal when
// no enemy slider then sees the king and no enemy knight or pawn but the captured one checks
// it. Two pawns leave one rank at once, so this covers the pin along the rank too.
template <Color Us, int D>
PERFTKIT_FORCEINLINE V en_passant_moves(const Lanes& p, V occ, V king, V leaper_checkers, V their_orthogonal,
                                        V their_diagonal) {
  const V to = p.en_passant_square;
  const V from = step<-D>(to) & p.pawns & p.us;
  __mmask8 lanes = _mm512_mask_test_epi64_mask(p.en_passant, from, from);
  if (!lanes) return _mm512_setzero_si512();
  const V captured = shift_raw<-PAWN_PUSH<Us>>(to);
  lanes = _mm512_mask_testn_epi64_mask(lanes, leaper_checkers, ~captured);
  lanes = __mmask8(lanes &
                   ~king_seen_by_sliders(lanes, king, (occ ^ from ^ captured) | to, their_orthogonal, their_diagonal));
  return _mm512_maskz_mov_epi64(lanes, _mm512_set1_epi64(1));
}

// Hands the legal moves of each lane to tally, but castling in scalar_castling_lanes: the
// lanes castling_moves() hands to the scalar generator. checkers: how many pieces give check
// to each lane's king.
template <Color Us, typename Tally>
PERFTKIT_FORCEINLINE void tally_lanes(const Lanes& p, __mmask8& scalar_castling_lanes, V& checkers, Tally& tally) {
  constexpr Color Them = ~Us;
  const V occ = p.us | p.them, empty = ~occ;
  const V king = p.kings & p.us;
  const V their_pawns = p.pawns & p.them, their_knights = p.knights & p.them;
  const V their_diagonal = p.diagonal & p.them, their_orthogonal = p.orthogonal & p.them;

  // Checks and pins.
  const V leaper_checkers = (KnightJumps(king).all() & their_knights) | (pawn_reach<Us>(king) & their_pawns);
  KingRays rays{_mm512_setzero_si512(), popcount(leaper_checkers), {}};
  for (V& v : rays.pinned_on) v = _mm512_setzero_si512();
  const Bitboard first_king = Bitboard(_mm_cvtsi128_si64(_mm512_castsi512_si128(king)));
  // (The mask stays 8 bits wide: ~ of a promoted __mmask8 has 24 more bits set, and made this
  // never true.)
  const bool one_king = __mmask8(_mm512_cmpeq_epi64_mask(king, splat(first_king)) | __mmask8(~p.live)) == 0xFF;
  const Square shared_king = one_king ? Square(lsb(first_king)) : SQ_NONE;
  rays.look<8>(king, shared_king, empty, p.us, their_orthogonal);
  rays.look<-8>(king, shared_king, empty, p.us, their_orthogonal);
  rays.look<1>(king, shared_king, empty, p.us, their_orthogonal);
  rays.look<-1>(king, shared_king, empty, p.us, their_orthogonal);
  rays.look<9>(king, shared_king, empty, p.us, their_diagonal);
  rays.look<-9>(king, shared_king, empty, p.us, their_diagonal);
  rays.look<7>(king, shared_king, empty, p.us, their_diagonal);
  rays.look<-7>(king, shared_king, empty, p.us, their_diagonal);
  const V pinned = rays.pinned_on[0] | rays.pinned_on[1] | rays.pinned_on[2] | rays.pinned_on[3];
  checkers = rays.checks;

  // Where a non-king move must land: anywhere, on the check line, or (double check) nowhere.
  const __mmask8 no_check = _mm512_cmpeq_epi64_mask(rays.checks, _mm512_setzero_si512());
  const __mmask8 one_check = _mm512_cmpeq_epi64_mask(rays.checks, _mm512_set1_epi64(1));
  V checkmask = _mm512_maskz_mov_epi64(one_check, rays.check_rays | leaper_checkers);
  checkmask = _mm512_mask_mov_epi64(checkmask, no_check, splat(ALL_SQUARES));
  const V targets = and_not(checkmask, p.us);
  // Castling needs a rook with the right as the first piece along the king's rank.
  const V castling_rooks = p.castling_rooks & p.us & splat(relative_rank_bb(Us, RANK_1));
  __mmask8 castling_lanes = _mm512_mask_test_epi64_mask(no_check, castling_rooks, castling_rooks);
  if (castling_lanes)
    castling_lanes = _mm512_mask_test_epi64_mask(
        castling_lanes, ray_attacks<1>(king, empty) | ray_attacks<-1>(king, empty), castling_rooks);
  scalar_castling_lanes = 0;

  // King: squares the enemy does not attack once the king has left its square, and castling
  // (often there is no free square next to any lane's king and no castling, and nothing to
  // work out).
  const V king_targets = and_not(king_reach(king), p.us);
  if (_mm512_test_epi64_mask(king_targets, king_targets) || castling_lanes) {
    const V see_through_king = empty | king;
    const V attacked =
        pawn_reach<Them>(their_pawns) | KnightJumps(their_knights).all() | king_reach(p.kings & p.them) |
        ray_attacks<8>(their_orthogonal, see_through_king) | ray_attacks<-8>(their_orthogonal, see_through_king) |
        ray_attacks<1>(their_orthogonal, see_through_king) | ray_attacks<-1>(their_orthogonal, see_through_king) |
        ray_attacks<9>(their_diagonal, see_through_king) | ray_attacks<-9>(their_diagonal, see_through_king) |
        ray_attacks<7>(their_diagonal, see_through_king) | ray_attacks<-7>(their_diagonal, see_through_king);
    tally.king(and_not(king_targets, attacked));
    if (castling_lanes)
      tally.castlings(castling_moves<Us>(castling_lanes, scalar_castling_lanes, king, castling_rooks, their_orthogonal,
                                         occ, attacked));
  }

  // Knights (a pinned knight never moves): one set per jump, so every move counts once.
  const V knights = and_not(p.knights & p.us, pinned);
  tally.knights(knights, KnightJumps(knights), targets);

  // Sliders, one direction at a time: rays of two sliders in one direction never overlap.
  const V our_orthogonal = p.orthogonal & p.us, our_diagonal = p.diagonal & p.us;
  tally_slider<8>(our_orthogonal, rays, pinned, empty, targets, tally);
  tally_slider<-8>(our_orthogonal, rays, pinned, empty, targets, tally);
  tally_slider<1>(our_orthogonal, rays, pinned, empty, targets, tally);
  tally_slider<-1>(our_orthogonal, rays, pinned, empty, targets, tally);
  tally_slider<9>(our_diagonal, rays, pinned, empty, targets, tally);
  tally_slider<-9>(our_diagonal, rays, pinned, empty, targets, tally);
  tally_slider<7>(our_diagonal, rays, pinned, empty, targets, tally);
  tally_slider<-7>(our_diagonal, rays, pinned, empty, targets, tally);

  // Pawns: pushes for pawns free or pinned on their file, each capture direction for pawns
  // free or pinned on that diagonal; a promotion counts four moves.
  constexpr int UP = PAWN_PUSH<Us>, UP_WEST = PAWN_CAPTURE_WEST<Us>, UP_EAST = PAWN_CAPTURE_EAST<Us>;
  const V our_pawns = p.pawns & p.us;
  const V last_rank = splat(relative_rank_bb(Us, RANK_8));
  const V pushers = and_not(our_pawns, and_not(pinned, rays.pinned_on[axis_of<UP>()]));
  const V single = shift_raw<UP>(pushers) & empty;
  const V doubles = shift_raw<UP>(single & splat(relative_rank_bb(Us, RANK_3))) & empty & checkmask;
  const V pushes = single & checkmask;
  const V capture_targets = p.them & checkmask;
  const V west =
      step<UP_WEST>(and_not(our_pawns, and_not(pinned, rays.pinned_on[axis_of<UP_WEST>()]))) & capture_targets;
  const V east =
      step<UP_EAST>(and_not(our_pawns, and_not(pinned, rays.pinned_on[axis_of<UP_EAST>()]))) & capture_targets;
  tally.pawns(pushes, doubles, west, east, last_rank);
  if (p.en_passant)
    tally.en_passant(en_passant_moves<Us, UP_WEST>(p, occ, king, leaper_checkers, their_orthogonal, their_diagonal) +
                     en_passant_moves<Us, UP_EAST>(p, occ, king, leaper_checkers, their_orthogonal, their_diagonal));
}

// Legal moves of each lane but castling in scalar_castling_lanes (tally_lanes()).
template <Color Us>
PERFTKIT_FORCEINLINE V count_lanes(const Lanes& p, __mmask8& scalar_castling_lanes, V& checkers) {
  MoveTally tally;
  tally_lanes<Us>(p, scalar_castling_lanes, checkers, tally);
  return tally.count;
}

// The castlings of one lane that count_lanes() hands back, by the scalar generator.
template <Color Us, int Capacity>
std::uint64_t scalar_castlings(const PositionLanes<Capacity>& block, int lane) {
  const Position pos = block.get(lane, Us);
  CountSink castlings;
  generate_castling<Us>(pos, pos.king_square(Us), castlings);
  return castlings.count;
}

// The legal move counts of the n positions of block from first on (first a multiple of eight,
// 1 <= n <= 8), each with Us to move, lane by lane (zero past n); the castlings of lanes the
// scalar generator decides are added to extra. A caller sums the lanes once for many blocks.
template <Color Us, int Capacity>
PERFTKIT_FORCEINLINE V count_moves_lanes(const PositionLanes<Capacity>& block, int first, int n, std::uint64_t& extra) {
  const Lanes lanes = load_lanes<Us>(block, first, n);
  __mmask8 scalar_castling_lanes;
  V checkers;
  const V counts = count_lanes<Us>(lanes, scalar_castling_lanes, checkers);
  for (unsigned rest = scalar_castling_lanes; rest; rest &= rest - 1)
    extra += scalar_castlings<Us>(block, first + __builtin_ctz(rest));
  return _mm512_maskz_mov_epi64(lanes.live, counts);
}

// The legal moves, and how many pieces give check, of each of the n positions of block from
// first on (first a multiple of eight, 1 <= n <= 8), each with Us to move (classify()'s two
// counts, eight positions at once).
template <Color Us, int Capacity>
PERFTKIT_FORCEINLINE void count_moves_and_checkers(const PositionLanes<Capacity>& block, int first, int n,
                                                   std::uint64_t (&moves)[8], std::uint64_t (&checkers)[8]) {
  const Lanes lanes = load_lanes<Us>(block, first, n);
  __mmask8 scalar_castling_lanes;
  V checks;
  const V counts = count_lanes<Us>(lanes, scalar_castling_lanes, checks);
  _mm512_storeu_si512(moves, counts);
  _mm512_storeu_si512(checkers, checks);
  for (unsigned rest = scalar_castling_lanes; rest; rest &= rest - 1) {
    const int lane = __builtin_ctz(rest);
    moves[lane] += scalar_castlings<Us>(block, first + lane);
  }
}

// The sum of v's eight lanes.
PERFTKIT_FORCEINLINE std::uint64_t lane_sum(V v) {
  alignas(64) std::uint64_t lanes[8];
  _mm512_store_si512(lanes, v);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7];
}

// The sums of eight vectors' lanes at once, in one vector (lane i: the sum of v[i]): pairs of
// vectors interleaved and added, then the 128-bit quarters of pairs of results folded twice.
PERFTKIT_FORCEINLINE V lane_sums(const V (&v)[8]) {
  V pairs[4];
  for (int k = 0; k < 4; ++k)
    pairs[k] = _mm512_unpacklo_epi64(v[2 * k], v[2 * k + 1]) + _mm512_unpackhi_epi64(v[2 * k], v[2 * k + 1]);
  // Quarter q of pairs[k]: lanes 2q and 2q + 1 of v[2k] summed, then of v[2k + 1].
  const auto fold = [](V a, V b) { return _mm512_shuffle_i64x2(a, b, 0x88) + _mm512_shuffle_i64x2(a, b, 0xDD); };
  return fold(fold(pairs[0], pairs[1]), fold(pairs[2], pairs[3]));
}

PERFTKIT_ISA_END
}  // namespace avx512
}  // namespace perftkit
#endif
