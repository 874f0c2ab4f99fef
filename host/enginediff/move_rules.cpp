#include "enginediff/move_rules.hpp"

#include <cctype>
#include <optional>

#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

const char* piece_name(PieceType pt) {
  switch (pt) {
    case KNIGHT: return "knight";
    case BISHOP: return "bishop";
    case ROOK: return "rook";
    case QUEEN: return "queen";
    default: return "piece";
  }
}

bool attacked_by_enemy(const Position& pos, Color us, Square s, Bitboard occ) {
  return attacked_by_color(pos, ~us, s, occ);
}

// Whether the king of `us` stands attacked once the move from-to is played as a plain
// move (a capture clears `to`); the child may not be a legal position.
bool leaves_king_attacked(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move;
  const Position child = make_move(pos, Move(from, to));
  return attacked_by_enemy(child, us, child.king_square(us), child.occupied());
}

std::optional<Square> parse_square(std::string_view text) {
  if (text.size() < 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return std::nullopt;
  return Square((text[1] - '1') * 8 + (text[0] - 'a'));
}

// Reach of the piece on `from`, ignoring pins and checks (pawn captures only onto pieces).
Bitboard pseudo_targets(const Position& pos, Square from) {
  const Color us = pos.side_to_move;
  const Bitboard occ = pos.occupied();
  switch (pos.piece_type_on(from)) {
    case KNIGHT: return knight_attacks(from);
    case BISHOP: return bishop_attacks(from, occ);
    case ROOK: return rook_attacks(from, occ);
    case QUEEN: return queen_attacks(from, occ);
    case KING: return king_attacks(from);
    case PAWN: {
      const int forward = us == WHITE ? 8 : -8;
      Bitboard targets = pawn_attacks(us, from) & pos.by_color[~us];
      const Square one = Square(from + forward);
      if (!(occ & square_bb(one))) {
        targets |= square_bb(one);
        const Square two = Square(from + 2 * forward);
        if (rank_of(from) == (us == WHITE ? RANK_2 : RANK_7) && !(occ & square_bb(two))) targets |= square_bb(two);
      }
      return targets;
    }
    default: return 0;
  }
}

std::string castling_fault(const Position& pos, Square king, Square to) {
  const Color us = pos.side_to_move;
  const CastlingSide side = to > king ? KING_SIDE : QUEEN_SIDE;
  const Square rook = pos.castling_rook(us, side);
  if (rook == SQ_NONE) {
    const Bitboard rank = relative_rank_bb(us, RANK_1);
    const Bitboard beyond = side == KING_SIDE ? ~(square_bb(king) | (square_bb(king) - 1)) : square_bb(king) - 1;
    if (!(pos.rooks() & pos.by_color[us] & rank & beyond)) return "castling with its rook missing";
    return "castling without the castling right";
  }
  if (in_check(pos)) return "castling out of check";
  const Square king_to = castling_king_to(us, side), rook_to = castling_rook_to(us, side);
  const Bitboard movers = square_bb(king) | square_bb(rook);
  const Bitboard occ = pos.occupied();
  if ((rank_span(king, king_to) | rank_span(rook, rook_to)) & occ & ~movers)
    return "castling through an occupied square";
  if (attacked_by_enemy(pos, us, king_to, occ ^ movers)) return "castling into check";
  return "castling through an attacked square";
}

std::string en_passant_fault(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move;
  if (to != pos.ep_square) return "en passant without the right (the last move was no double push beside it)";
  const Position child = make_move(pos, Move::make<EN_PASSANT>(from, to));
  const Square ksq = pos.king_square(us);
  if (rank_of(ksq) == rank_of(from)) return "en passant exposing the king along the rank";
  if (in_check(pos) && attacked_by_enemy(child, us, ksq, child.occupied())) return "en passant that ignores the check";
  return "en passant exposing the king";
}

}  // namespace

bool attacked_by_color(const Position& pos, Color by, Square s, Bitboard occ) {
  return by == WHITE ? attacked_by<WHITE>(pos, s, occ) : attacked_by<BLACK>(pos, s, occ);
}

Bitboard pinned_pieces(const Position& pos) {
  const Color us = pos.side_to_move;
  const Square ksq = pos.king_square(us);
  const LegalityMasks m = us == WHITE ? legality_masks<WHITE>(pos, ksq) : legality_masks<BLACK>(pos, ksq);
  return (m.pin_orth | m.pin_diag) & pos.by_color[us];
}

std::string rule_of_legal_move(const Position& pos, Move m) {
  const Color us = pos.side_to_move;
  switch (m.type()) {
    case CASTLING: {
      const CastlingSide side = m.to() > m.from() ? KING_SIDE : QUEEN_SIDE;
      if (castling_king_to(us, side) == m.from())
        return "castling (Chess960) with the king already on its target square";
      if (castling_rook_to(us, side) == m.to()) return "castling (Chess960) with the rook already on its target square";
      return side == KING_SIDE ? "castling king side" : "castling queen side";
    }
    case EN_PASSANT: return "en passant";
    case PROMOTION:
      if (m.promotion_type() == QUEEN) return "promotion to a queen";
      return std::string("underpromotion to a ") + piece_name(m.promotion_type());
    default: break;
  }
  const bool capture = (pos.by_color[~us] & square_bb(m.to())) != 0;
  if (pos.piece_type_on(m.from()) == KING) {
    if (in_check(pos)) return capture ? "king capture out of check" : "king move out of check";
    return capture ? "king capture" : "king move";
  }
  if (in_check(pos)) return "check evasion (block or capture)";
  if (pinned_pieces(pos) & square_bb(m.from())) return "pinned piece along its pin line";
  if (pos.piece_type_on(m.from()) == PAWN && (m.from() ^ m.to()) == 16) return "pawn double push";
  return "";
}

std::string rule_of_illegal_move(const Position& pos, std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  const std::optional<Square> from = parse_square(lower),
                              to = lower.size() >= 4 ? parse_square(lower.substr(2)) : std::nullopt;
  if (!from || !to || lower.size() > 5) return "not a move";
  const Color us = pos.side_to_move;
  const Bitboard from_bb = square_bb(*from), to_bb = square_bb(*to);
  if (!(pos.occupied() & from_bb)) return "no piece on its from square";
  if (pos.by_color[~us] & from_bb) return "moves a piece of the side not to move";
  const PieceType piece = pos.piece_type_on(*from);
  const bool promotion_letter = lower.size() == 5;

  if (piece == KING) {
    const bool onto_own_rook = (pos.rooks() & pos.by_color[us] & to_bb) != 0;
    const bool two_files =
        rank_of(*from) == rank_of(*to) && (file_of(*from) - file_of(*to) == 2 || file_of(*to) - file_of(*from) == 2);
    const bool back_rank = rank_of(*from) == (us == WHITE ? RANK_1 : RANK_8);
    if (back_rank && (onto_own_rook || two_files || *from == *to)) return castling_fault(pos, *from, *to);
  }
  if (pos.by_color[us] & to_bb) return "captures a piece of its own side";
  if (piece == PAWN && (pawn_attacks(us, *from) & to_bb) && !(pos.occupied() & to_bb))
    return en_passant_fault(pos, *from, *to);
  if (!(pseudo_targets(pos, *from) & to_bb))
    return std::string("not a move of that ") + (piece == PAWN ? "pawn" : piece == KING ? "king" : piece_name(piece));
  const bool last_rank = rank_of(*to) == (us == WHITE ? RANK_8 : RANK_1);
  if (piece == PAWN && last_rank && !promotion_letter) return "pawn reaches the last rank without promoting";
  if (promotion_letter && !(piece == PAWN && last_rank)) return "promotion letter on a move that does not promote";
  if (!leaves_king_attacked(pos, *from, *to)) return "a legal move written in a form perftkit cannot read";
  if (piece == KING) return (pos.by_color[~us] & to_bb) ? "king captures a defended piece" : "king moves into check";
  if (in_check(pos)) return "ignores the check";
  if (pinned_pieces(pos) & from_bb) return "pinned piece leaves its pin line";
  return "exposes its own king";
}

}  // namespace perftkit
