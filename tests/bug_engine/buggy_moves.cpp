#include "bug_engine/buggy_moves.hpp"

#include <utility>

#include "enginediff/move_rules.hpp"
#include "notation/uci.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit::bug_engine {
namespace {

constexpr std::pair<const char*, Bug> BUG_NAMES[] = {
    {"none", Bug::NONE},
    {"ep-exposes-king", Bug::EP_EXPOSES_KING_ON_RANK},
    {"castle-through-attack", Bug::CASTLE_THROUGH_ATTACK},
    {"castle-without-rook", Bug::CASTLE_WITHOUT_ROOK},
    {"no-underpromotion", Bug::NO_UNDERPROMOTION},
    {"pinned-leaves-line", Bug::PINNED_LEAVES_LINE},
    {"king-takes-defended", Bug::KING_TAKES_DEFENDED},
    {"ep-right-kept", Bug::EP_RIGHT_KEPT},
    {"chess960-king-on-target", Bug::CHESS960_KING_ON_TARGET},
    {"crash", Bug::CRASH},
    {"hang", Bug::HANG},
    {"garbage", Bug::GARBAGE},
    {"phantom-move", Bug::PHANTOM_MOVE},
    {"san-lines", Bug::SAN_LINES},
    {"crash-below-root", Bug::CRASH_BELOW_ROOT},
};

bool is_listed(const std::vector<BuggyMove>& moves, const std::string& uci) {
  for (const BuggyMove& m : moves)
    if (m.uci == uci) return true;
  return false;
}

// The child state of a move, with the history the buggy bookkeeping keeps.
BugState follow(const BugState& parent, const Position& child, Square from, Square to, bool castling, Bug bug) {
  BugState next{child};
  const Position& pos = parent.pos;
  const Color us = pos.side_to_move;
  if (bug == Bug::EP_RIGHT_KEPT) {
    next.stale_ep = parent.pending_ep;
    const bool double_push = pos.piece_type_on(from) == PAWN && (from ^ to) == 16;
    next.pending_ep = double_push ? Square((from + to) / 2) : SQ_NONE;
  }
  if (bug == Bug::CASTLE_WITHOUT_ROOK) {
    next.phantom_rooks = parent.phantom_rooks;
    if (!castling && (pos.castling_rooks & pos.by_color[~us] & square_bb(to))) next.phantom_rooks |= square_bb(to);
    if (pos.piece_type_on(from) == KING) next.phantom_rooks &= ~relative_rank_bb(us, RANK_1);
  }
  return next;
}

void add(std::vector<BuggyMove>& moves, const BugState& parent, Move m, Bug bug, bool chess960) {
  const Position child = make_move(parent.pos, m);
  moves.push_back({to_uci(m, chess960), follow(parent, child, m.from(), m.to(), m.type() == CASTLING, bug)});
}

// En passant whose only fault is the king's rank left open.
void add_ep_exposing_rank(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  if (pos.ep_square == SQ_NONE || in_check(pos)) return;
  Bitboard capturers = pawn_attacks(~us, pos.ep_square) & pos.pawns & pos.by_color[us];
  while (capturers) {
    const Square from = pop_lsb(capturers);
    const Move m = Move::make<EN_PASSANT>(from, pos.ep_square);
    if (rank_of(pos.king_square(us)) == rank_of(from) && !is_listed(moves, to_uci(m, chess960)))
      add(moves, state, m, Bug::NONE, chess960);
  }
}

// Castling checked for empty squares and a safe destination, not for the squares crossed.
void add_castling_through_attack(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  if (in_check(pos)) return;
  const Square ksq = pos.king_square(us);
  for (const CastlingSide side : {KING_SIDE, QUEEN_SIDE}) {
    const Square rook = pos.castling_rook(us, side);
    if (rook == SQ_NONE) continue;
    const Move m = Move::make<CASTLING>(ksq, rook);
    const Square king_to = castling_king_to(us, side);
    const Bitboard movers = square_bb(ksq) | square_bb(rook);
    const Bitboard occ = pos.occupied();
    if ((rank_span(ksq, king_to) | rank_span(rook, castling_rook_to(us, side))) & occ & ~movers) continue;
    if (attacked_by_color(pos, ~us, king_to, occ ^ movers) || is_listed(moves, to_uci(m, chess960))) continue;
    add(moves, state, m, Bug::NONE, chess960);
  }
}

// Castling towards a corner whose rook was captured there, as if the rook still stood on it.
void add_castling_without_rook(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  if (in_check(pos)) return;
  const Square ksq = pos.king_square(us);
  Bitboard corners = state.phantom_rooks & relative_rank_bb(us, RANK_1);
  while (corners) {
    const Square corner = pop_lsb(corners);
    const CastlingSide side = corner > ksq ? KING_SIDE : QUEEN_SIDE;
    if (pos.castling_rook(us, side) != SQ_NONE) continue;
    const Square king_to = castling_king_to(us, side);
    const Bitboard occ = pos.occupied() & ~square_bb(ksq);
    if ((rank_span(ksq, king_to) | square_bb(castling_rook_to(us, side))) & occ) continue;
    bool safe = true;
    for (Bitboard path = rank_span(ksq, king_to); path && safe;)
      safe = !attacked_by_color(pos, ~us, pop_lsb(path), occ);
    if (!safe) continue;
    const Position child = make_move(pos, Move(ksq, king_to));  // the king alone: there is no rook
    moves.push_back({to_uci(Move::make<CASTLING>(ksq, corner), chess960),
                     follow(state, child, ksq, king_to, true, Bug::CASTLE_WITHOUT_ROOK)});
  }
}

// Moves of pinned pieces (not pawns or the king) off their pin line.
void add_pinned_moves(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  if (in_check(pos)) return;
  Bitboard pieces = pinned_pieces(pos) & ~pos.pawns & ~pos.kings;
  while (pieces) {
    const Square from = pop_lsb(pieces);
    const Bitboard occ = pos.occupied();
    Bitboard targets = 0;
    switch (pos.piece_type_on(from)) {
      case KNIGHT: targets = knight_attacks(from); break;
      case BISHOP: targets = bishop_attacks(from, occ); break;
      case ROOK: targets = rook_attacks(from, occ); break;
      default: targets = queen_attacks(from, occ); break;
    }
    targets &= ~pos.by_color[us] & ~pos.kings;
    while (targets) {
      const Move m(from, pop_lsb(targets));
      if (!is_listed(moves, to_uci(m, chess960))) add(moves, state, m, Bug::NONE, chess960);
    }
  }
}

// King captures of defended pieces.
void add_king_takes_defended(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  const Square ksq = pos.king_square(us);
  Bitboard victims = king_attacks(ksq) & pos.by_color[~us] & ~pos.kings;
  while (victims) {
    const Move m(ksq, pop_lsb(victims));
    if (!is_listed(moves, to_uci(m, chess960))) add(moves, state, m, Bug::NONE, chess960);
  }
}

// "En passant" onto the square behind a double push of the side to move itself, one ply
// after the right should have gone: the pawn slides diagonally onto the empty square.
void add_stale_en_passant(std::vector<BuggyMove>& moves, const BugState& state, bool chess960) {
  const Position& pos = state.pos;
  const Color us = pos.side_to_move;
  if (state.stale_ep == SQ_NONE || (pos.occupied() & square_bb(state.stale_ep))) return;
  Bitboard pawns = pawn_attacks(~us, state.stale_ep) & pos.pawns & pos.by_color[us];
  while (pawns) {
    const Square from = pop_lsb(pawns);
    const Move m(from, state.stale_ep);
    const Position child = make_move(pos, m);
    moves.push_back({to_uci(m, chess960), follow(state, child, from, state.stale_ep, false, Bug::EP_RIGHT_KEPT)});
  }
}

}  // namespace

std::optional<Bug> parse_bug(std::string_view text) {
  for (const auto& [name, bug] : BUG_NAMES)
    if (text == name) return bug;
  return std::nullopt;
}

std::string bug_names() {
  std::string names;
  for (const auto& [name, bug] : BUG_NAMES) names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

std::vector<BuggyMove> buggy_moves(const BugState& state, Bug bug, bool chess960) {
  std::vector<BuggyMove> moves;
  const Color us = state.pos.side_to_move;
  // An injected illegal move may leave a king en prise, and the reply may take it: a game
  // without a king has no moves here (perftkit's generator needs both kings).
  if (!(state.pos.kings & state.pos.by_color[WHITE]) || !(state.pos.kings & state.pos.by_color[BLACK])) return moves;
  for_each_legal_move(state.pos, [&](const Position& child, Move m) {
    if (bug == Bug::NO_UNDERPROMOTION && m.type() == PROMOTION && m.promotion_type() != QUEEN) return;
    if (bug == Bug::CHESS960_KING_ON_TARGET && m.type() == CASTLING &&
        castling_king_to(us, m.to() > m.from() ? KING_SIDE : QUEEN_SIDE) == m.from())
      return;
    moves.push_back({to_uci(m, chess960), follow(state, child, m.from(), m.to(), m.type() == CASTLING, bug)});
  });
  switch (bug) {
    case Bug::EP_EXPOSES_KING_ON_RANK: add_ep_exposing_rank(moves, state, chess960); break;
    case Bug::CASTLE_THROUGH_ATTACK: add_castling_through_attack(moves, state, chess960); break;
    case Bug::CASTLE_WITHOUT_ROOK: add_castling_without_rook(moves, state, chess960); break;
    case Bug::PINNED_LEAVES_LINE: add_pinned_moves(moves, state, chess960); break;
    case Bug::KING_TAKES_DEFENDED: add_king_takes_defended(moves, state, chess960); break;
    case Bug::EP_RIGHT_KEPT: add_stale_en_passant(moves, state, chess960); break;
    default: break;
  }
  return moves;
}

std::uint64_t buggy_perft(const BugState& state, int depth, Bug bug, bool chess960) {
  if (depth <= 0) return 1;
  const bool plain = bug == Bug::NONE || bug == Bug::CRASH || bug == Bug::HANG || bug == Bug::GARBAGE ||
                     bug == Bug::PHANTOM_MOVE || bug == Bug::SAN_LINES || bug == Bug::CRASH_BELOW_ROOT;
  if (depth == 1 && plain) return count_moves(state.pos);
  const std::vector<BuggyMove> moves = buggy_moves(state, bug, chess960);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (const BuggyMove& m : moves) nodes += buggy_perft(m.child, depth - 1, bug, chess960);
  return nodes;
}

}  // namespace perftkit::bug_engine
