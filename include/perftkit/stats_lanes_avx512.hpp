// The last ply's statistics of eight positions at once, on the AVX-512 counter's lanes
// (count_moves_avx512.hpp). A lane is counted when none of its moves can uncover a check and
// every leaf but a check keeps Them a reply and no draw: its statistics are then its moves
// by kind, which the lanes count, and the classification of its direct checks, promotions and
// en-passant captures, which the caller plays. Every other lane goes back to the scalar
// last_ply_stats(). The rules are the LeafFilter's (stats.hpp), but a piece uncovers a check
// only when it stands alone between Them's king and a slider of ours, and Them keeps a reply
// on a weaker condition.
#pragma once

#include "perftkit/count_moves_avx512.hpp"

#if PERFTKIT_HAS_AVX512_COUNT

namespace perftkit {
namespace avx512 {
PERFTKIT_ISA_BEGIN

// Every square on a line (rank, file or diagonal) through each square, the square excluded.
inline constexpr auto QUEEN_LINES = [] {
  std::array<Bitboard, 64> lines{};
  for (int s = 0; s < 64; ++s)
    lines[s] = DIRECTION_RAYS<8>[s] | DIRECTION_RAYS<-8>[s] | DIRECTION_RAYS<1>[s] | DIRECTION_RAYS<-1>[s] |
               DIRECTION_RAYS<9>[s] | DIRECTION_RAYS<-9>[s] | DIRECTION_RAYS<7>[s] | DIRECTION_RAYS<-7>[s];
  return lines;
}();

// Calls f.template operator()<D>() for each of the eight directions D along a queen's lines.
template <typename F>
PERFTKIT_FORCEINLINE void for_each_direction(F&& f) {
  f.template operator()<8>();
  f.template operator()<-8>();
  f.template operator()<1>();
  f.template operator()<-1>();
  f.template operator()<9>();
  f.template operator()<-9>();
  f.template operator()<7>();
  f.template operator()<-7>();
}

// The place of direction D in for_each_direction()'s order.
template <int D>
constexpr int index_of() {
  constexpr int order[8] = {8, -8, 1, -1, 9, -9, 7, -7};
  for (int i = 0; i < 8; ++i)
    if (order[i] == D) return i;
  return -1;
}

// Them's king in each lane, and the lines through it. The lanes of one batch are mostly
// siblings, whose king (the side that just moved) stands on one square unless it moved:
// then `shared` names that square, and a direction no slider of ours can look along from it
// needs no work.
struct TheirKing {
  V bit, lines;
  Square shared;

  PERFTKIT_FORCEINLINE TheirKing(__mmask8 live, V king) : bit(king) {
    alignas(64) Bitboard lanes[8];  // (a cast to the low 128 bits draws a false -Wmaybe-uninitialized from g++ 12)
    _mm512_store_si512(lanes, king);
    const Bitboard first = lanes[0];
    const __mmask8 same = _mm512_cmpeq_epi64_mask(king, splat(first)) | __mmask8(~live);
    shared = first != 0 && same == 0xFF ? Square(lsb(first)) : SQ_NONE;
    if (shared != SQ_NONE) {
      lines = splat(QUEEN_LINES[shared]);
    } else {
      const V square = popcount(king - _mm512_set1_epi64(1));
      lines = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), live, square, QUEEN_LINES.data(), 8);
    }
  }
  // The squares, lane by lane, from Them's king along each line up to the first piece of
  // Them's, that piece included, one direction an entry (index_of<D>()): where a piece of
  // Them's may stand pinned after one move of Us (pinnable()). One beyond it stays shielded,
  // for no move of Us takes that piece away but to land on its square, except en passant,
  // which takes a pawn off a square it leaves empty (pinnable() keeps such lanes' whole
  // lines). Our own pieces are seen through: a move may clear them.
  struct ShieldedLines {
    V reach[8];
  };
  // From the king's rays over the board (`rays`, each up to the first piece, in
  // for_each_direction()'s order): a ray that ends on a piece of Them's, or at the edge, is
  // already the line's shielded part, and only a direction where some lane's ray ends on a
  // piece of ours is traced again.
  PERFTKIT_FORCEINLINE ShieldedLines shielded_lines(V them, V ours, const V (&rays)[8]) const {
    const V clear = ~them;
    ShieldedLines s;
    for_each_direction([&]<int D>() {
      const V ray = rays[index_of<D>()];
      s.reach[index_of<D>()] = _mm512_test_epi64_mask(ray, ours) ? ray_attacks<D>(bit, clear) : ray;
    });
    return s;
  }
  PERFTKIT_FORCEINLINE V pinnable(const ShieldedLines& s, __mmask8 en_passant) const {
    const V reach =
        s.reach[0] | s.reach[1] | s.reach[2] | s.reach[3] | s.reach[4] | s.reach[5] | s.reach[6] | s.reach[7];
    return _mm512_mask_mov_epi64(reach, en_passant, lines);
  }
  // The squares where a piece of Them's may stand pinned after a move of Us that gives a
  // direct check: as pinnable(), but only along a line with a slider of ours of its kind
  // beyond the first piece of Them's (before any other; our pieces seen through: one may move
  // off the line). A checking move pins nothing by landing: its square would lie on the line
  // behind that piece, the one line from there to the king, and it could not check along it.
  PERFTKIT_FORCEINLINE V pinnable_after_a_check(const ShieldedLines& s, V them, V our_orthogonal, V our_diagonal,
                                                __mmask8 en_passant) const {
    const V clear = ~them;
    V pinnable = _mm512_setzero_si512();
    const auto line = [&]<int D>() {
      const V sliders = orthogonal_direction<D>() ? our_orthogonal : our_diagonal;
      if (!may_see<D>(sliders)) return;
      const V reach = s.reach[index_of<D>()];
      const V beyond = ray_attacks<D>(reach & them, clear);
      pinnable = _mm512_mask_mov_epi64(pinnable, _mm512_test_epi64_mask(beyond, sliders), pinnable | reach);
    };
    for_each_direction(line);
    return _mm512_mask_mov_epi64(pinnable, en_passant, lines);
  }
  // False only when every lane's king has no square of `sliders` on its ray in direction D.
  template <int D>
  PERFTKIT_FORCEINLINE bool may_see(V sliders) const {
    return shared == SQ_NONE || _mm512_test_epi64_mask(splat(DIRECTION_RAYS<D>[shared]), sliders);
  }
};

// What the counted lanes' moves are, by kind (the move-kind counters of StatField), and
// their direct checks but by promotions.
struct LaneCounts {
  V nodes = _mm512_setzero_si512(), captures = _mm512_setzero_si512(), en_passant = _mm512_setzero_si512(),
    castles = _mm512_setzero_si512(), promotions = _mm512_setzero_si512(), checks = _mm512_setzero_si512();

  // Adds the lanes `lanes` of more.
  PERFTKIT_FORCEINLINE void add(__mmask8 lanes, const LaneCounts& more) {
    nodes = _mm512_mask_add_epi64(nodes, lanes, nodes, more.nodes);
    captures = _mm512_mask_add_epi64(captures, lanes, captures, more.captures);
    en_passant = _mm512_mask_add_epi64(en_passant, lanes, en_passant, more.en_passant);
    castles = _mm512_mask_add_epi64(castles, lanes, castles, more.castles);
    promotions = _mm512_mask_add_epi64(promotions, lanes, promotions, more.promotions);
    checks = _mm512_mask_add_epi64(checks, lanes, checks, more.checks);
  }
};

// How count_stats_lanes() splits a batch of lanes.
struct LaneSplit {
  __mmask8 counted;  // lanes whose moves the vectors counted by kind, and their direct checks
  // Among them, the lanes with leaves to play and classify: moves of pawns, knights or sliders
  // (bishops, rooks, queens) that give a direct check that may mate, promotions, en-passant
  // captures. A direct check is a single check (no move of these lanes uncovers one). The
  // other leaves of a counted lane are not mated, and keep a reply when not in check.
  __mmask8 pawn_checks, knight_checks, slider_checks, promotions, en_passant;
  V may_mate;  // the squares a direct check that may mate lands on, lane by lane
};

// Where a piece of ours attacks Them's king from, lane by lane, by kind of piece: a move that
// lands there gives a direct check.
struct CheckSquares {
  V pawn, knight, diagonal, orthogonal;
};

// A tally_lanes() tally for the statistics: counts moves by kind, and gathers the moves that
// give a direct check by kind of piece, and the lanes that castle, promote or take en passant.
struct StatsTally {
  PERFTKIT_FORCEINLINE StatsTally(V their_pieces, V queens_of_ours, const CheckSquares& check_squares)
      : them(their_pieces),
        our_queens(queens_of_ours),
        checks(check_squares),
        queens(_mm512_test_epi64_mask(queens_of_ours, queens_of_ours) != 0) {}

  V them, our_queens;
  CheckSquares checks;
  bool queens;  // a lane has a queen of ours: it checks along both kinds of line
  LaneCounts counts;
  V pawn_checks = _mm512_setzero_si512(), knight_checks = _mm512_setzero_si512(),
    slider_checks = _mm512_setzero_si512();
  __mmask8 castling = 0, promoting = 0, en_passant_lanes = 0;

  PERFTKIT_FORCEINLINE void moves(V targets) {
    counts.nodes = counts.nodes + popcount(targets);
    counts.captures = counts.captures + popcount(targets & them);
  }
  PERFTKIT_FORCEINLINE void king(V targets) { moves(targets); }
  PERFTKIT_FORCEINLINE void castlings(V n) {
    counts.nodes = counts.nodes + n;
    counts.castles = counts.castles + n;
    castling |= _mm512_test_epi64_mask(n, n);
  }
  // Where every lane has two knights at most (all but lanes after a promotion), no square is
  // the target of more than two jumps: the squares reached once, and those reached twice,
  // count every move in six popcounts instead of twenty-four.
  PERFTKIT_FORCEINLINE void knights(V movers, const KnightJumps& jumps, V targets) {
    if (_mm512_cmpgt_epu64_mask(popcount(movers), _mm512_set1_epi64(2))) {
      for (const V& j : jumps.jump) knight_moves(j & targets);
      return;
    }
    V once = _mm512_setzero_si512(), twice = _mm512_setzero_si512();
    for (const V& j : jumps.jump) {
      const V reached = j & targets;
      twice |= once & reached;
      once |= reached;
    }
    knight_moves(once);
    knight_moves(twice);
  }
  PERFTKIT_FORCEINLINE void knight_moves(V targets) {
    moves(targets);
    const V checking = targets & checks.knight;
    knight_checks |= checking;
    counts.checks = counts.checks + popcount(checking);
  }
  template <int D>
  PERFTKIT_FORCEINLINE void slider(V movers, V empty, V targets) {
    moves(targets);
    constexpr bool ORTHOGONAL = orthogonal_direction<D>();
    const V checking = targets & (ORTHOGONAL ? checks.orthogonal : checks.diagonal);
    slider_checks |= checking;
    counts.checks = counts.checks + popcount(checking);
    // A queen moving along one kind of line may check along the other (a square lies on one
    // line through Them's king at most, so no check counts twice).
    // (The queen's ray is traced only where some lane's move lands on such a square.)
    const V other_line = targets & (ORTHOGONAL ? checks.diagonal : checks.orthogonal);
    if (queens && _mm512_test_epi64_mask(other_line, other_line)) {
      const V queen_checking = ray_attacks<D>(movers & our_queens, empty) & other_line;
      slider_checks |= queen_checking;
      counts.checks = counts.checks + popcount(queen_checking);
    }
  }
  // A promotion is four moves, one per piece.
  PERFTKIT_FORCEINLINE void pawns(V pushes, V doubles, V west, V east, V last_rank) {
    // Pushes land on empty squares, captures on Them's pieces.
    const V west_moves = popcount(west), east_moves = popcount(east);
    counts.nodes = counts.nodes + popcount(pushes | doubles) + west_moves + east_moves;
    counts.captures = counts.captures + west_moves + east_moves;
    // Pawn checks but by promotions (the caller plays those); two pawns may take on one square.
    const V push_checks = and_not(pushes | doubles, last_rank) & checks.pawn;
    const V west_checks = and_not(west, last_rank) & checks.pawn, east_checks = and_not(east, last_rank) & checks.pawn;
    pawn_checks |= push_checks | west_checks | east_checks;
    counts.checks = counts.checks + popcount(push_checks) + popcount(west_checks) + popcount(east_checks);
    const V promotions = popcount((pushes | west | east) & last_rank);
    const V capturing_promotions = popcount((west | east) & last_rank);
    counts.nodes = counts.nodes + promotions + promotions + promotions;
    counts.captures = counts.captures + capturing_promotions + capturing_promotions + capturing_promotions;
    const V twice = promotions + promotions;
    counts.promotions = counts.promotions + twice + twice;
    promoting |= _mm512_test_epi64_mask(promotions, promotions);
  }
  PERFTKIT_FORCEINLINE void en_passant(V n) {
    counts.nodes = counts.nodes + n;
    counts.captures = counts.captures + n;
    counts.en_passant = counts.en_passant + n;
    en_passant_lanes |= _mm512_test_epi64_mask(n, n);
  }
};

// Lanes where a piece of ours stands alone between Them's king and a slider of ours, in any
// direction: its move may uncover a check.
PERFTKIT_FORCEINLINE __mmask8 uncovering_lanes(const TheirKing& king, const V (&king_rays)[8], V ours, V empty,
                                               V our_orthogonal, V our_diagonal) {
  __mmask8 lanes = 0;
  for_each_direction([&]<int D>() {
    const V sliders = orthogonal_direction<D>() ? our_orthogonal : our_diagonal;
    if (king.may_see<D>(sliders))
      lanes |= _mm512_test_epi64_mask(ray_attacks<D>(king_rays[index_of<D>()] & ours, empty), sliders);
  });
  return lanes;
}

// Lanes where Them keeps a reply after any move of Us that does not check. Only Them's pieces
// off `pinnable` count (every line through Them's king, or TheirKing::pinnable()), for no
// move can pin them. A knight with a square not Them's a jump away, or a bishop, rook or
// queen with one a step away, keeps that move unless it is captured: our piece landing on
// the square is taken there. A pawn with a free square ahead loses it to a capture or a
// block. One move of Us captures one piece and blocks nothing else, or blocks one square, or
// two (castling; en passant takes a pawn and blocks one). So two such pieces, or one and a
// pawn, or three pawns, keep a reply.
template <Color Them>
PERFTKIT_FORCEINLINE __mmask8 lanes_keeping_a_reply(const Lanes& p, V pinnable, V empty) {
  const V unpinnable = and_not(p.them, pinnable);
  const V free_squares = ~p.them;
  const V diagonal_steps =
      step<9>(free_squares) | step<-9>(free_squares) | step<7>(free_squares) | step<-7>(free_squares);
  const V orthogonal_steps =
      step<8>(free_squares) | step<-8>(free_squares) | step<1>(free_squares) | step<-1>(free_squares);
  const V free_pieces = unpinnable & ((p.knights & KnightJumps(free_squares).all()) | (p.diagonal & diagonal_steps) |
                                      (p.orthogonal & orthogonal_steps));
  const V pieces = popcount(free_pieces);
  const V pawns = popcount(shift_raw<PAWN_PUSH<Them>>(p.pawns & unpinnable) & empty);
  const V one = _mm512_set1_epi64(1);
  const __mmask8 two_pieces = _mm512_mask_cmpgt_epu64_mask(p.live, pieces, one);
  const __mmask8 piece_and_pawn =
      _mm512_mask_cmpge_epu64_mask(_mm512_mask_cmpge_epu64_mask(p.live, pieces, one), pawns, one);
  const __mmask8 three_pawns = _mm512_mask_cmpge_epu64_mask(p.live, pawns, _mm512_set1_epi64(3));
  return two_pieces | piece_and_pawn | three_pawns;
}

// What the pieces of Us attack, lane by lane, with every piece of Us lifted off the board
// (open: the squares that do not stop a line): the squares one piece attacks at least, and
// those two attack at least. Two sliders on one line in one direction both reach the squares
// beyond the nearer one, which the farther one reaches.
struct LiftedAttacks {
  V once = _mm512_setzero_si512(), twice = _mm512_setzero_si512();
};
// (With Twice false, `twice` is left empty: the sliders' second rays are not traced.)
template <Color Us, bool Twice>
PERFTKIT_FORCEINLINE LiftedAttacks lifted_attacks(const Lanes& p, V open) {
  LiftedAttacks a;
  const auto add = [&](V attacks) {
    a.twice |= a.once & attacks;
    a.once |= attacks;
  };
  const V pawns = p.pawns & p.us;
  add(step<PAWN_CAPTURE_WEST<Us>>(pawns));
  add(step<PAWN_CAPTURE_EAST<Us>>(pawns));
  const KnightJumps knights(p.knights & p.us);
  for (const V& jump : knights.jump) add(jump);
  add(king_reach(p.kings & p.us));
  const V our_orthogonal = p.orthogonal & p.us, our_diagonal = p.diagonal & p.us;
  const auto line = [&]<int D>() {
    const V sliders = orthogonal_direction<D>() ? our_orthogonal : our_diagonal;
    const V reach = occluded_ray_attacks<D>(sliders, open);
    if constexpr (Twice) {
      add(reach);
      a.twice |= occluded_ray_attacks<D>(sliders & reach, open);
    } else {
      a.once |= reach;
    }
  };
  for_each_direction(line);
  return a;
}

// The squares, lane by lane, where a direct check of Us (one of `checks`, a single check: no
// move of the lane uncovers one) may mate. Each rule below gives Them a legal reply to every
// such check, whichever piece gives it, and holds in the leaf because one move of Us changes
// the board only on its two squares.
// - Capture: a piece of Them's but the king that no move pins (off TheirKing::pinnable():
//   off every line through Them's king, or behind a piece of Them's on it) attacks the
//   square. Its path does not cross the move's origin in a way that matters (a vacated square
//   only opens lines), and taking the checker uncovers nothing.
// - Block: the square lies on a line from Them's king beyond an empty square that such a
//   piece reaches by a quiet move (a pawn by a push). The checker's own square is not on that
//   piece's path: the path would then run along the check's line, on which such a piece
//   stands behind a piece of Them's, still there or taken on the checker's square, and either
//   way ends the path before the check's line is reached.
// - Capture by the first piece of Them's on a line through the king, where no slider of ours
//   of the line's kind stands beyond it (TheirKing::pinnable_after_a_check()): a checking
//   move does not pin it, and it attacks the square. (Not for blocks: the checker may take
//   that very piece, on its way to check along the line.)
// - The king takes the checker: the square is next to Them's king, and at most one piece of
//   Us attacks it with every piece of Us lifted off the board and Them's king too
//   (lifted_attacks()). A piece that moves there attacks it, so that one is the checker, and
//   once it is taken nothing attacks the square. Not for a pawn's check: a push attacks
//   nothing on its square.
// - Flight: a square next to Them's king, not Them's, that no piece of Us attacks even with
//   every piece of Us lifted off the board and Them's king too, nor a checker from any of the
//   lane's check squares that may still mate (the others are settled). Lifting pieces only
//   lengthens the sliders' lines, so this covers the squares the move vacates and the
//   checker's new lines, and the king's own line.
// (Not inlined: four batches in ten call it, and count_stats_lanes() keeps fewer vectors
// live without it; 0.99 of the time, paired.)
template <Color Us>
[[gnu::noinline]] V checks_that_may_mate(const Lanes& p, const TheirKing& king, V empty, const V (&king_rays)[8],
                                         V pawn_checks, V knight_checks, V slider_checks) {
  constexpr Color Them = ~Us;
  const V their_king = king.bit;
  // The rules run cheapest and most often decisive first, each only while a check is left.
  const auto none_left = [&](V squares) { return !_mm512_test_epi64_mask(squares, squares); };
  const TheirKing::ShieldedLines shielded = king.shielded_lines(p.them, p.us, king_rays);
  const V pinnable = king.pinnable(shielded, p.en_passant);
  const V unpinned = and_not(p.them, pinnable | their_king);
  const auto reach_of = [&](V pieces) {
    const V diagonal = p.diagonal & pieces, orthogonal = p.orthogonal & pieces;
    V reach = KnightJumps(p.knights & pieces).all();
    for_each_direction(
        [&]<int D>() { reach |= ray_attacks<D>(orthogonal_direction<D>() ? orthogonal : diagonal, empty); });
    return reach;
  };
  const V piece_reach = reach_of(unpinned);
  const V unpinned_pawns = p.pawns & unpinned;
  V may_mate = and_not(pawn_checks | knight_checks | slider_checks, piece_reach | pawn_reach<Them>(unpinned_pawns));
  if (none_left(may_mate)) return may_mate;

  if (_mm512_test_epi64_mask(may_mate, slider_checks)) {
    const V single = shift_raw<PAWN_PUSH<Them>>(unpinned_pawns) & empty;
    const V doubles = shift_raw<PAWN_PUSH<Them>>(single & splat(relative_rank_bb(Them, RANK_3))) & empty;
    const V unblockable = and_not(empty, (piece_reach & empty) | single | doubles);
    // One direction at a time, only where some lane has such a check on that ray.
    for_each_direction([&]<int D>() {
      const V& ray = king_rays[index_of<D>()];
      if (_mm512_test_epi64_mask(ray, may_mate))
        may_mate = and_not(may_mate, and_not(ray, ray_attacks<D>(their_king, unblockable)));
    });
    if (none_left(may_mate)) return may_mate;
  }

  const V first_on_lines = and_not(
      p.them & pinnable,
      king.pinnable_after_a_check(shielded, p.them, p.orthogonal & p.us, p.diagonal & p.us, p.en_passant) | their_king);
  if (!none_left(first_on_lines)) {
    may_mate = and_not(may_mate, reach_of(first_on_lines) | pawn_reach<Them>(p.pawns & first_on_lines));
    if (none_left(may_mate)) return may_mate;
  }

  // The king's capture and its flight both look at our pieces lifted off the board.
  const V next_to_king = king_reach(their_king);
  const V squares_by_king = and_not(next_to_king, p.them);
  const bool king_may_take = _mm512_test_epi64_mask(and_not(may_mate, pawn_checks), next_to_king);
  const bool king_may_flee =
      _mm512_mask_test_epi64_mask(_mm512_test_epi64_mask(may_mate, may_mate), squares_by_king, squares_by_king);
  if (!king_may_take && !king_may_flee) return may_mate;
  const V open = ~and_not(p.them, their_king);
  const LiftedAttacks lifted = king_may_take ? lifted_attacks<Us, true>(p, open) : lifted_attacks<Us, false>(p, open);
  if (king_may_take) may_mate = and_not(may_mate, and_not(next_to_king, lifted.twice | pawn_checks));
  if (!king_may_flee) return may_mate;
  // Only the checks still left need a flight: the others are settled.
  const V sliders_left = slider_checks & may_mate;
  V flights = and_not(squares_by_king, lifted.once | pawn_reach<Us>(pawn_checks & may_mate) |
                                           KnightJumps(knight_checks & may_mate).all());
  if (_mm512_test_epi64_mask(sliders_left, sliders_left) &&
      _mm512_mask_test_epi64_mask(_mm512_test_epi64_mask(may_mate, may_mate), flights, flights)) {
    V reach = _mm512_setzero_si512();
    for_each_direction([&]<int D>() { reach |= occluded_ray_attacks<D>(sliders_left, open); });
    flights = and_not(flights, reach);
  }
  return _mm512_maskz_mov_epi64(_mm512_testn_epi64_mask(flights, flights), may_mate);
}

// Counts the lanes of p (Us to move in each) whose moves uncover no check and leave Them a
// reply unless they check: adds their moves by kind to counts, and says which of them have
// leaves to play. The caller counts the other live lanes. No leaf of a lane may be drawn
// (the caller's rule: clocks below 99, three pawns, rooks or queens at least).
template <Color Us>
PERFTKIT_FORCEINLINE LaneSplit count_stats_lanes(const Lanes& p, LaneCounts& counts) {
  constexpr Color Them = ~Us;
  const V occ = p.us | p.them, empty = ~occ;
  const TheirKing king(p.live, p.kings & p.them);
  const V their_king = king.bit;
  const V our_orthogonal = p.orthogonal & p.us, our_diagonal = p.diagonal & p.us;
  V king_rays[8];  // in for_each_direction()'s order
  for_each_direction([&]<int D>() { king_rays[index_of<D>()] = ray_attacks<D>(their_king, empty); });
  const CheckSquares checks{pawn_reach<Them>(their_king), KnightJumps(their_king).all(),
                            king_rays[4] | king_rays[5] | king_rays[6] | king_rays[7],
                            king_rays[0] | king_rays[1] | king_rays[2] | king_rays[3]};
  // Them already in check (never after a legal move) would break the filter's reasoning.
  const V checking = (checks.pawn & p.pawns & p.us) | (checks.knight & p.knights & p.us) |
                     (checks.diagonal & our_diagonal) | (checks.orthogonal & our_orthogonal);
  const V our_queens = our_diagonal & our_orthogonal;
  StatsTally tally(p.them, our_queens, checks);
  __mmask8 scalar_castling_lanes;
  V checkers;
  tally_lanes<Us>(p, scalar_castling_lanes, checkers, tally);

  __mmask8 handed_back = scalar_castling_lanes | _mm512_test_epi64_mask(checking, checking) |
                         uncovering_lanes(king, king_rays, p.us, empty, our_orthogonal, our_diagonal);
  // Castling checks directly only with the rook, on the f- or d-file of our first rank, and
  // only where a rook there sees Them's king now: a square the king or rook leaves opens no
  // line to it, for the one it uncovers (the king or rook first on a line from Them's king,
  // the other behind) is a lane uncovering_lanes() sends back, and the one the rook is first
  // on is shut again by the king, which lands beyond the rook.
  if (tally.castling) {
    const V rook_landings =
        splat(square_bb(castling_rook_to(Us, KING_SIDE)) | square_bb(castling_rook_to(Us, QUEEN_SIDE)));
    handed_back |= _mm512_mask_test_epi64_mask(tally.castling, checks.orthogonal, rook_landings);
  }
  // Off every line through Them's king first (all but a few lanes keep a reply so), then
  // off the lines as far as a piece of Them's shields them (TheirKing::pinnable()).
  __mmask8 keeping = lanes_keeping_a_reply<Them>(p, king.lines, empty) & p.live;
  if (keeping != p.live)
    keeping |= lanes_keeping_a_reply<Them>(p, king.pinnable(king.shielded_lines(p.them, p.us, king_rays), p.en_passant),
                                           empty);
  const __mmask8 counted = keeping & p.live & ~handed_back;
  counts.add(counted, tally.counts);
  const V direct_checks = tally.pawn_checks | tally.knight_checks | tally.slider_checks;
  const V may_mate = _mm512_mask_test_epi64_mask(counted, direct_checks, direct_checks)
                         ? checks_that_may_mate<Us>(p, king, empty, king_rays, tally.pawn_checks, tally.knight_checks,
                                                    tally.slider_checks)
                         : _mm512_setzero_si512();
  const auto lanes_with = [counted, may_mate](V moves) {
    return _mm512_mask_test_epi64_mask(counted, moves, may_mate);
  };
  return LaneSplit{counted,
                   lanes_with(tally.pawn_checks),
                   lanes_with(tally.knight_checks),
                   lanes_with(tally.slider_checks),
                   __mmask8(counted & tally.promoting),
                   __mmask8(counted & tally.en_passant_lanes),
                   may_mate};
}

PERFTKIT_ISA_END
}  // namespace avx512
}  // namespace perftkit
#endif
