// Detailed perft statistics: counters over the moves into leaf positions (captures, en
// passant, castles, promotions, checks of each kind, mates) and draw statistics of the leaf
// positions (stalemate, dead material, the 50- and 75-move clocks). The last ply is generated
// by generate_legal() into a StatsSink, which counts each batch of moves by kind and lists
// the moves whose leaves need a look; those are then played (make_move) and classified in one
// loop. Interior plies are walked as in perft().
#pragma once

#include <initializer_list>
#include <type_traits>

#include "perftkit/material.hpp"
#include "perftkit/move_list.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {

enum StatField : std::uint8_t {
  NODES,
  CAPTURES,  // including en passant and capturing promotions
  EN_PASSANT_CAPTURES,
  CASTLES,
  PROMOTIONS,         // each promotion piece is one move
  CHECKS,             // every check, mates included: direct + discovered + double
  DISCOVERED_CHECKS,  // one checker, and not the piece that moved (mates included)
  DOUBLE_CHECKS,      // two checkers (mates included)
  CHECKMATES,
  DISCOVERED_CHECKMATES,         // the checkmates among the discovered checks
  DOUBLE_CHECKMATES,             // the checkmates among the double checks
  DISCOVERED_DOUBLE_CHECKS,      // the double checks by two uncovered pieces, neither the one that moved
  DISCOVERED_DOUBLE_CHECKMATES,  // the checkmates among them
  STALEMATES,
  DEAD_KING_VS_KING,
  DEAD_KING_VS_KING_BISHOP,
  DEAD_KING_VS_KING_KNIGHT,
  DEAD_KING_BISHOP_VS_KING_BISHOP,
  DEAD_SAME_COLOURED_BISHOPS,
  CLOCK_100,  // half-move clock at 100 or more: a draw may be claimed (50-move rule)
  CLOCK_150,  // half-move clock at 150 or more: drawn unless the move mated (75-move rule)
  STAT_FIELD_NB
};

// Leaf counters, one per StatField, of Count bits each.
template <typename Count>
struct StatCounters {
  Count count[STAT_FIELD_NB];

  PERFTKIT_HD_INLINE Count& operator[](StatField f) { return count[f]; }
  PERFTKIT_HD_INLINE Count operator[](StatField f) const { return count[f]; }
  // Adds any counters indexed by StatField (StatCounters, PlyStats), widening them.
  template <typename Counters>
  PERFTKIT_HD_INLINE StatCounters& operator+=(const Counters& other) {
    for (int f = 0; f < STAT_FIELD_NB; ++f) count[f] += other[StatField(f)];
    return *this;
  }
  bool operator==(const StatCounters&) const = default;
};

// Leaf counters of one work unit; 64 bits each (drivers sum units in 128 bits).
using LeafStats = StatCounters<std::uint64_t>;
// Leaf counters of the tree within two plies of one position: at most 218^2 = 47,524 leaves,
// so 32 bits each, half the registers of LeafStats (what a GPU thread holds while it counts).
using ShallowStats = StatCounters<std::uint32_t>;

// Leaf counters of one ply below one position, two 16-bit counters to a 32-bit word: one ply
// has a few hundred moves at most (even an invented position stays far below 65,536 of a
// kind), and packed, a GPU thread holds its counters in 11 registers instead of 21.
struct PlyStats {
  static constexpr int WORDS = (STAT_FIELD_NB + 1) / 2;
  std::uint32_t word[WORDS];

  // One counter in place: += and ++ add to its half of the word.
  struct Counter {
    std::uint32_t& word;
    unsigned shift;
    PERFTKIT_HD_INLINE Counter& operator+=(std::uint32_t n) {
      word += n << shift;
      return *this;
    }
    PERFTKIT_HD_INLINE Counter& operator++() { return *this += 1u; }
  };

  PERFTKIT_HD_INLINE Counter operator[](StatField f) { return {word[f / 2], 16u * (f % 2u)}; }
  PERFTKIT_HD_INLINE std::uint32_t operator[](StatField f) const { return (word[f / 2] >> (16u * (f % 2u))) & 0xffffu; }
  template <typename Counters>
  PERFTKIT_HD_INLINE PlyStats& operator+=(const Counters& other) {
    for (int f = 0; f < STAT_FIELD_NB; ++f) (*this)[StatField(f)] += std::uint32_t(other[StatField(f)]);
    return *this;
  }
};

static_assert(std::is_trivially_copyable_v<LeafStats> && std::is_trivially_copyable_v<ShallowStats> &&
              std::is_trivially_copyable_v<PlyStats>);

PERFTKIT_ISA_BEGIN

// Steps of the statistics that run once per parent of the last ply (last_ply_stats) or once
// per played leaf (classify_leaf): the device inlines them like everything else; the host
// calls them. Inlined on the host, each was copied into every batch of the move generator
// above it (a piece type or pawn batch, twice for the two mask variants), and a unit that
// instantiated perft_stats took minutes to compile. A call costs a few nanoseconds against
// the move generation it runs.
#ifdef __CUDA_ARCH__
#define PERFTKIT_HD_CALLED PERFTKIT_HD_INLINE
#else
#define PERFTKIT_HD_CALLED PERFTKIT_HD __attribute__((noinline))
#endif

// Counts the draw statistics of a leaf: dead material by kind and the move clocks.
template <typename Stats>
PERFTKIT_HD_INLINE void classify_draws(const Position& child, Stats& stats) {
  switch (dead_material(child)) {
    case DeadMaterial::NONE: break;
    case DeadMaterial::KING_VS_KING: ++stats[DEAD_KING_VS_KING]; break;
    case DeadMaterial::KING_VS_KING_BISHOP: ++stats[DEAD_KING_VS_KING_BISHOP]; break;
    case DeadMaterial::KING_VS_KING_KNIGHT: ++stats[DEAD_KING_VS_KING_KNIGHT]; break;
    case DeadMaterial::KING_BISHOP_VS_KING_BISHOP: ++stats[DEAD_KING_BISHOP_VS_KING_BISHOP]; break;
    case DeadMaterial::SAME_COLOURED_BISHOPS: ++stats[DEAD_SAME_COLOURED_BISHOPS]; break;
  }
  stats[CLOCK_100] += child.halfmove_clock >= 100;
  stats[CLOCK_150] += child.halfmove_clock >= 150;
}

// What the moves of Us from one position can lead to, known before any is played: lets the
// last ply skip leaves that provably count nothing but their move kind (no check, a reply,
// no draw). It never decides a count; with shortcuts off every leaf is played.
struct LeafFilter {
  Bitboard direct[PIECE_TYPE_NB];  // where a piece of each type attacks Them's king from
  Bitboard uncovering;             // origins whose move may uncover a check
  bool classify_all;               // no leaf may be skipped
  bool them_keeps_a_move;          // a leaf where Them is not in check has a legal reply
  bool may_be_drawn;               // a leaf may be dead by material or have its clock at 100

  // Targets of moves from `from` by a piece of type Pt that may give check: a check from the
  // target, or a line from Them's king uncovered at the origin (its first piece).
  template <PieceType Pt>
  PERFTKIT_HD_INLINE Bitboard suspects(Square from, Bitboard targets) const {
    if (classify_all || (uncovering & square_bb(from))) return targets;
    return targets & direct[Pt];
  }
  // The same for pawn moves whose targets are their origins shifted by Offset.
  template <int Offset>
  PERFTKIT_HD_INLINE Bitboard pawn_suspects(Bitboard targets) const {
    return classify_all ? targets : targets & (direct[PAWN] | shift<Offset>(uncovering));
  }
};

// Where a piece of Us of each type gives Them's king a direct check from (none for the king):
// a move of that piece landing there checks.
template <Color Us>
PERFTKIT_HD_INLINE void find_direct_checks(const Position& pos, Bitboard (&direct)[PIECE_TYPE_NB]) {
  const Square ksq = pos.king_square(~Us);
  const Bitboard occ = pos.occupied();
  direct[PAWN] = pawn_attacks(~Us, ksq);
  direct[KNIGHT] = knight_attacks(ksq);
  direct[BISHOP] = bishop_attacks(ksq, occ);
  direct[ROOK] = rook_attacks(ksq, occ);
  direct[QUEEN] = direct[BISHOP] | direct[ROOK];
}

// Them keeps a move when three of its knights or pawns off every line through its king (never
// pinned) have a free step: one move of Us takes or blocks at most two (castling lands two).
// No draw while the clock is below 99 and three pawns, rooks or queens stand (a move removes two at most).
template <Color Us>
PERFTKIT_HD_INLINE LeafFilter leaf_filter(const Position& pos, bool shortcuts) {
  constexpr Color Them = ~Us;
  LeafFilter f{};
  if (!shortcuts) {
    f.classify_all = f.may_be_drawn = true;
    return f;
  }
  const Bitboard theirs = pos.by_color[Them], ours = pos.by_color[Us], occ = pos.occupied();
  const Square ksq = pos.king_square(Them);
  const Bitboard unpinnable = theirs & ~queen_attacks(ksq, 0);
  int free_steps = popcount(shift<PAWN_PUSH<Them>>(pos.pawns & unpinnable) & ~occ);
  Bitboard knights = pos.knights & unpinnable;
  while (knights && free_steps < 3) free_steps += (knight_attacks(pop_lsb(knights)) & ~theirs) != 0;
  f.them_keeps_a_move = free_steps >= 3;
  f.may_be_drawn = pos.halfmove_clock >= 99 || popcount(pos.pawns | pos.orthogonal) <= 2;

  find_direct_checks<Us>(pos, f.direct);
  f.uncovering = f.direct[QUEEN] & ours;
  // Them already in check (an illegal position) would break the reasoning above.
  const bool them_in_check = (f.direct[PAWN] & pos.pawns & ours) || (f.direct[KNIGHT] & pos.knights & ours) ||
                             (f.direct[BISHOP] & pos.diagonal & ours) || (f.direct[ROOK] & pos.orthogonal & ours);
  f.classify_all = !f.them_keeps_a_move || f.may_be_drawn || them_in_check;
  return f;
}

// Counts the leaf position child, reached by a move of ~Them whose moving piece now stands
// on moved_to (the promoted piece for a promotion, the rook for castling): the kind of
// check (direct, discovered or double), mate or stalemate, and the draw statistics. filter
// is the parent's. Move-kind counters are the caller's.
template <Color Them, typename Stats>
PERFTKIT_HD_CALLED void classify_leaf(const Position& child, Square moved_to, const LeafFilter& filter, Stats& stats) {
  const Square ksq = child.king_square(Them);
  const Bitboard checkers = attackers<~Them>(child, ksq, child.occupied());
  // Mate or stalemate: one search for a reply serves both (one generator in the code).
  const bool no_reply = (checkers || !filter.them_keeps_a_move) && !has_legal_move<Them>(child);
  if (checkers) {
    const bool double_check = more_than_one(checkers);
    const bool discovered = !double_check && !(checkers & square_bb(moved_to));
    ++stats[CHECKS];
    stats[DOUBLE_CHECKS] += double_check;
    stats[DISCOVERED_CHECKS] += discovered;
    stats[CHECKMATES] += no_reply;
    stats[DOUBLE_CHECKMATES] += double_check && no_reply;
    stats[DISCOVERED_CHECKMATES] += discovered && no_reply;
    const bool both_uncovered = double_check && !(checkers & square_bb(moved_to));
    stats[DISCOVERED_DOUBLE_CHECKS] += both_uncovered;
    stats[DISCOVERED_DOUBLE_CHECKMATES] += both_uncovered && no_reply;
  } else {
    stats[STALEMATES] += no_reply;
  }
  if (filter.may_be_drawn) classify_draws(child, stats);
}

// Where the last ply's leaves are played: listed during generation and played in one loop
// after it (the device, where everything inlines: the classification is then compiled once,
// not in every batch of the generator), or at once in the batch that found them (the host,
// where classify_leaf is a call and the batch stays small). Both count the same; the tests
// run both on the host.
inline constexpr bool LIST_LEAVES = PERFTKIT_DEVICE_PASS != 0;

// The last ply: counts every legal move of Us by kind, a batch at a time, and plays and
// classifies each move whose leaf the parent's LeafFilter cannot rule out. ListLeaves: the
// moves are listed first (MoveListSink's windows: those numbered first, first + 1, ...), and
// classify_listed() plays them.
// Counters: a ShallowStats of the sink's own, or a reference to the caller's.
template <Color Us, bool ListLeaves = LIST_LEAVES, typename Counters = ShallowStats>
struct StatsSink {
  const Position& pos;
  LeafFilter filter;
  Counters stats;           // one ply: at most 218 moves of each kind
  MoveListSink leaves;      // ListLeaves: the moves whose leaves are to be played
  bool count_kinds = true;  // false on a later window: the move kinds are counted already
  bool shortcuts;

  PERFTKIT_HD_INLINE StatsSink(const Position& parent, bool use_shortcuts, Move* leaf_moves, Counters counters)
      : pos(parent),
        filter(leaf_filter<Us>(parent, use_shortcuts)),
        stats(counters),
        leaves{leaf_moves},
        shortcuts(use_shortcuts) {}

  // The square of the piece that moved, once it has: the rook, for castling.
  PERFTKIT_HD_INLINE static Square moved_to(Move m) {
    return m.type() == CASTLING ? castling_rook_to(Us, m.to() > m.from() ? KING_SIDE : QUEEN_SIDE) : m.to();
  }
  // The leaf of move m: listed, or played and classified now.
  PERFTKIT_HD_INLINE void leaf(Move m) {
    if constexpr (ListLeaves) leaves.add(m);
    else classify_leaf<~Us>(make_move<Us>(pos, m), moved_to(m), filter, stats);
  }

  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square from, Bitboard targets) {
    if (count_kinds) {
      stats[NODES] += popcount(targets);
      stats[CAPTURES] += popcount(targets & pos.by_color[~Us]);
    }
    Bitboard suspects = filter.suspects<Pt>(from, targets);
    if constexpr (ListLeaves) {
      leaves.template piece_moves<Pt>(from, suspects);
    } else {
      while (suspects) {
        const Square to = pop_lsb(suspects);
        classify_leaf<~Us>(make_piece_move<Us, Pt>(pos, from, to), to, filter, stats);
      }
    }
  }

  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    constexpr bool PROMOTING = Kind == PawnBatch::PROMOTION;
    constexpr bool CAPTURING = Kind == PawnBatch::CAPTURE || (PROMOTING && Offset != PAWN_PUSH<Us>);
    if (count_kinds) {
      const auto moves = std::uint32_t((PROMOTING ? 4 : 1) * popcount(targets));
      stats[NODES] += moves;
      if constexpr (CAPTURING) stats[CAPTURES] += moves;
      if constexpr (PROMOTING) stats[PROMOTIONS] += moves;
    }
    Bitboard suspects = PROMOTING ? targets : filter.pawn_suspects<Offset>(targets);
    if constexpr (ListLeaves) {
      leaves.template pawn_moves<Kind, Offset>(suspects);
    } else {
      while (suspects) {
        const Square to = pop_lsb(suspects);
        const Square from = Square(to - Offset);
        if constexpr (PROMOTING) {
          for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT})
            classify_leaf<~Us>(make_promotion<Us>(pos, from, to, promo), to, filter, stats);
        } else {
          classify_leaf<~Us>(make_pawn_move<Us>(pos, from, to), to, filter, stats);
        }
      }
    }
  }

  PERFTKIT_HD_INLINE void en_passant(Square from, Square to) {
    if (count_kinds) {
      ++stats[NODES];
      ++stats[CAPTURES];
      ++stats[EN_PASSANT_CAPTURES];
    }
    leaf(Move::make<EN_PASSANT>(from, to));
  }

  PERFTKIT_HD_INLINE void castling(Square king, Square rook) {
    if (count_kinds) {
      ++stats[NODES];
      ++stats[CASTLES];
    }
    leaf(Move::make<CASTLING>(king, rook));
  }

  // Plays and classifies the listed leaves of the current window; true when a further
  // window remains (the generator must run again, counting no kinds).
  PERFTKIT_HD_INLINE bool classify_listed() {
    if constexpr (!ListLeaves) return false;
    const int end = leaves.listed();
    for (int i = 0; i < end; ++i) {
      const Move m = leaves.moves[i];
      classify_leaf<~Us>(make_move<Us>(pos, m), moved_to(m), filter, stats);
    }
    if (!leaves.next_window()) return false;
    count_kinds = false;
    // Built again rather than kept: its masks then die with the generator's run, and the
    // classification loop above does not hold them (registers on a GPU).
    filter = leaf_filter<Us>(pos, shortcuts);
    return true;
  }
};

// The last ply below pos: adds the statistics of every move of Us and its leaf to stats
// (LeafStats, ShallowStats or PlyStats).
template <Color Us, bool ListLeaves = LIST_LEAVES, typename Stats>
PERFTKIT_HD_CALLED void last_ply_stats(const Position& pos, Stats& stats, bool shortcuts) {
  Move leaf_moves[ListLeaves ? MAX_LEGAL_MOVES : 1];
  if constexpr (ListLeaves && (std::is_same_v<Stats, ShallowStats> || std::is_same_v<Stats, PlyStats>)) {
    // The device's: the caller's counters are registers, and the sink counts into them (one
    // set of counters live, not two).
    StatsSink<Us, ListLeaves, Stats&> sink(pos, shortcuts, leaf_moves, stats);
    do generate_legal<Us>(pos, sink);
    while (sink.classify_listed());
  } else {
    // The host's: the sink's own counters, apart from the position, so stores do not alias it.
    StatsSink<Us, ListLeaves> sink(pos, shortcuts, leaf_moves, ShallowStats{});
    do generate_legal<Us>(pos, sink);
    while (sink.classify_listed());
    stats += sink.stats;
  }
}

// The last ply below pos, for the side to move.
template <typename Stats>
PERFTKIT_HD_INLINE void last_ply_stats(const Position& pos, Stats& stats, bool shortcuts) {
  if (pos.side_to_move == WHITE) last_ply_stats<WHITE>(pos, stats, shortcuts);
  else last_ply_stats<BLACK>(pos, stats, shortcuts);
}

// The last two plies below pos, without recursion (device code has no stack to spare): the
// moves of pos are listed, then each child's last ply is counted in one loop.
template <Color Us>
PERFTKIT_HD_INLINE void last_two_plies_stats(const Position& pos, LeafStats& stats, bool shortcuts) {
  for_each_listed_move<Us>(pos, [&](Move m) { last_ply_stats<~Us>(make_move<Us>(pos, m), stats, shortcuts); });
}

// perft_stats() for depth 0..2, without recursion: what the GPU's last plies run.
template <Color Us>
PERFTKIT_HD_INLINE void shallow_perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts) {
  if (depth <= 0) ++stats[NODES];
  else if (depth == 1) last_ply_stats<Us>(pos, stats, shortcuts);
  else last_two_plies_stats<Us>(pos, stats, shortcuts);
}

template <Color Us>
PERFTKIT_HD void perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts) {
  if (depth <= 2) {
    shallow_perft_stats<Us>(pos, depth, stats, shortcuts);
    return;
  }
  for_each_legal_move<Us>(pos,
                          [&](const Position& child, Move) { perft_stats<~Us>(child, depth - 1, stats, shortcuts); });
}

// Adds the leaf statistics of the legal move tree of the given depth to stats. Depth 0
// counts the position itself as one node and nothing else: no move leads into it. With
// shortcuts off every leaf is played and classified (the reference the tests compare with).
PERFTKIT_HD inline void perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts = true) {
  if (pos.side_to_move == WHITE) perft_stats<WHITE>(pos, depth, stats, shortcuts);
  else perft_stats<BLACK>(pos, depth, stats, shortcuts);
}

// The statistics of the single legal move m of pos (the depth-1 tree below m): the move is
// handed to a StatsSink as a batch of one, as the generator would hand it.
template <Color Us>
PERFTKIT_HD_INLINE LeafStats move_stats(const Position& pos, Move m) {
  Move leaf_moves[LIST_LEAVES ? MAX_LEGAL_MOVES : 1];
  StatsSink<Us> sink(pos, false, leaf_moves, ShallowStats{});
  const Square from = m.from(), to = m.to();
  const Bitboard to_bb = square_bb(to);
  switch (m.type()) {
    case EN_PASSANT: sink.en_passant(from, to); break;
    case CASTLING: sink.castling(from, to); break;
    case PROMOTION:
      ++sink.stats[NODES];
      ++sink.stats[PROMOTIONS];
      sink.stats[CAPTURES] += (pos.by_color[~Us] & to_bb) != 0;
      sink.leaf(m);
      break;
    default:
      switch (pos.piece_type_on(from)) {
        case PAWN:
          ++sink.stats[NODES];
          sink.stats[CAPTURES] += (pos.by_color[~Us] & to_bb) != 0;
          sink.leaf(m);
          break;
        case KNIGHT: sink.template piece_moves<KNIGHT>(from, to_bb); break;
        case BISHOP: sink.template piece_moves<BISHOP>(from, to_bb); break;
        case ROOK: sink.template piece_moves<ROOK>(from, to_bb); break;
        case QUEEN: sink.template piece_moves<QUEEN>(from, to_bb); break;
        default: sink.template piece_moves<KING>(from, to_bb); break;
      }
  }
  sink.classify_listed();
  LeafStats stats{};
  stats += sink.stats;
  return stats;
}

PERFTKIT_HD_INLINE LeafStats move_stats(const Position& pos, Move m) {
  return pos.side_to_move == WHITE ? move_stats<WHITE>(pos, m) : move_stats<BLACK>(pos, m);
}

PERFTKIT_ISA_END
}  // namespace perftkit
