// Standard Algebraic Notation: the text is read into a pattern, whose moves are found from
// the target square back (the pattern's pieces that reach it, each tried for the safety of
// the king), or, for castling and en passant, by the core's legal move generator matching
// batch by batch, generating the pattern's piece only (no child positions either way).
#include "notation/san.hpp"

#include "perftkit/movegen.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

// What a SAN text asks for; -1 where it leaves a coordinate open.
struct SanPattern {
  PieceType piece = NO_PIECE_TYPE;
  int from_file = -1, from_rank = -1;
  Square to = SQ_NONE;
  PieceType promotion = NO_PIECE_TYPE;
  bool castling = false;
  CastlingSide side = KING_SIDE;
};

bool is_file(char ch) { return ch >= 'a' && ch <= 'h'; }
bool is_rank(char ch) { return ch >= '1' && ch <= '8'; }

PieceType piece_of_letter(char ch) {
  switch (ch) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_PIECE_TYPE;
  }
}

// Castling written with letters O or digits 0, two or three groups.
bool parse_castling(std::string_view text, SanPattern& p) {
  if (text == "O-O" || text == "0-0") p.side = KING_SIDE;
  else if (text == "O-O-O" || text == "0-0-0") p.side = QUEEN_SIDE;
  else return false;
  p.castling = true;
  return true;
}

// "[NBRQK][file][rank][x]square" or "file[x file]rank[=][NBRQ]"; false when text is neither.
bool parse_pattern(std::string_view text, SanPattern& p) {
  if (parse_castling(text, p)) return true;
  if (text.empty()) return false;
  p.piece = piece_of_letter(text[0]);
  if (p.piece == NO_PIECE_TYPE) {
    // A pawn move: the promotion piece comes last, with or without '='.
    p.piece = PAWN;
    if (text.size() >= 2 && piece_of_letter(char(text.back() & ~0x20)) != NO_PIECE_TYPE &&
        (text[text.size() - 2] == '=' || is_rank(text[text.size() - 2]))) {
      p.promotion = piece_of_letter(char(text.back() & ~0x20));
      if (p.promotion == KING || (text.back() >= 'a' && text[text.size() - 2] != '=')) return false;
      text.remove_suffix(text[text.size() - 2] == '=' ? 2 : 1);
    }
    if (text.size() == 2 && is_file(text[0]) && is_rank(text[1])) {
      p.from_file = text[0] - 'a';
    } else if (text.size() == 4 && is_file(text[0]) && text[1] == 'x' && is_file(text[2]) && is_rank(text[3])) {
      p.from_file = text[0] - 'a';
      text.remove_prefix(2);
    } else {
      return false;
    }
    p.to = make_square(text[0] - 'a', text[1] - '1');
    return true;
  }
  text.remove_prefix(1);
  if (text.size() < 2 || !is_file(text[text.size() - 2]) || !is_rank(text.back())) return false;
  p.to = make_square(text[text.size() - 2] - 'a', text.back() - '1');
  text.remove_suffix(2);
  if (!text.empty() && text.back() == 'x') text.remove_suffix(1);
  if (!text.empty() && is_file(text[0])) {
    p.from_file = text[0] - 'a';
    text.remove_prefix(1);
  }
  if (!text.empty() && is_rank(text[0])) {
    p.from_rank = text[0] - '1';
    text.remove_prefix(1);
  }
  return text.empty();
}

// The legal moves a pattern names: how many, and the last one.
struct SanMatches {
  Move found{};
  int count = 0;

  void record(Move m) {
    found = m;
    ++count;
  }
  SanResult result() const {
    if (count == 0) return {Move{}, SanStatus::ILLEGAL};
    if (count > 1) return {Move{}, SanStatus::AMBIGUOUS};
    return {found, SanStatus::OK};
  }
};

// Receives the legal moves in the generator's batches and keeps those the pattern names.
struct SanMatchSink {
  const SanPattern& p;
  SanMatches matches;

  // Only the pattern's piece is generated (castling comes with the king's moves).
  bool wants(PieceType pt) const { return p.castling ? pt == KING : pt == p.piece; }

  bool origin_fits(Square from) const {
    return (p.from_file < 0 || file_of(from) == p.from_file) && (p.from_rank < 0 || rank_of(from) == p.from_rank);
  }
  void record(Move m) { matches.record(m); }

  template <PieceType Pt>
  void piece_moves(Square from, Bitboard targets) {
    if (Pt == p.piece && !p.castling && (targets & square_bb(p.to)) && origin_fits(from)) record(Move(from, p.to));
  }
  template <PawnBatch Kind, int Offset>
  void pawn_moves(Bitboard targets) {
    if (p.piece != PAWN || !(targets & square_bb(p.to))) return;
    const Square from = Square(p.to - Offset);
    if (!origin_fits(from)) return;
    if constexpr (Kind == PawnBatch::PROMOTION) {
      if (p.promotion != NO_PIECE_TYPE) record(Move::make<PROMOTION>(from, p.to, p.promotion));
    } else {
      if (p.promotion == NO_PIECE_TYPE) record(Move(from, p.to));
    }
  }
  void en_passant(Square from, Square to) {
    if (p.piece == PAWN && to == p.to && p.promotion == NO_PIECE_TYPE && origin_fits(from))
      record(Move::make<EN_PASSANT>(from, to));
  }
  void castling(Square king, Square rook) {
    if (p.castling && (rook > king ? KING_SIDE : QUEEN_SIDE) == p.side) record(Move::make<CASTLING>(king, rook));
  }
};

// Drops the check, mate and annotation marks that may follow a move.
std::string_view strip_suffixes(std::string_view text) {
  while (!text.empty() && (text.back() == '+' || text.back() == '#' || text.back() == '!' || text.back() == '?'))
    text.remove_suffix(1);
  return text;
}

// The squares of our pieces that the pattern may mean: of its kind, reaching its target
// square, on its file and rank when it names them; none when the target holds our own
// piece, or when the pattern's promotion does not fit the target's rank (a pawn reaching
// the last rank must promote, and only then may a pattern name a piece). Legality aside.
template <Color Us>
Bitboard pattern_origins(const Position& pos, const SanPattern& p) {
  const Bitboard us = pos.by_color[Us], occ = pos.occupied();
  if (square_bb(p.to) & us) return 0;
  const bool promotes = p.piece == PAWN && relative_rank(Us, rank_of(p.to)) == RANK_8;
  if (promotes != (p.promotion != NO_PIECE_TYPE)) return 0;
  Bitboard origins = 0;
  switch (p.piece) {
    case PAWN: origins = pawns_moving_to<Us>(pos, p.to); break;
    case KNIGHT: origins = knight_attacks(p.to) & pos.knights; break;
    case BISHOP: origins = sliders_reaching(p.to, 0, pos.bishops() & us, occ); break;
    case ROOK: origins = sliders_reaching(p.to, pos.rooks() & us, 0, occ); break;
    case QUEEN: origins = sliders_reaching(p.to, pos.queens() & us, pos.queens() & us, occ); break;
    default: origins = king_attacks(p.to) & pos.kings; break;
  }
  origins &= us;
  if (p.from_file >= 0) origins &= file_bb(p.from_file);
  if (p.from_rank >= 0) origins &= rank_bb(p.from_rank);
  return origins;
}

// The pattern's legal moves found from the target square back: each of its origins is kept
// when our king is safe after the move (the definition of a legal move). Most SAN moves have
// one origin, and this reads only small tables, where generating the side's moves would ask
// the large slider tables for its legality masks and every piece of the kind. Castling and
// en passant are left to the generator (false). The matches come back through a reference,
// not in a returned optional: that came back packed into a register from narrow stores, a
// store-forwarding stall on every move.
template <Color Us>
bool resolve_from_target(const Position& pos, const SanPattern& p, SanMatches& matches) {
  constexpr Color Them = ~Us;
  if (p.castling || (p.piece == PAWN && p.to == pos.ep_square)) return false;
  const Bitboard target = square_bb(p.to), occ = pos.occupied();
  const Square king = pos.king_square(Us);
  for (Bitboard origins = pattern_origins<Us>(pos, p); origins;) {
    const Square from = pop_lsb(origins);
    // Whether their pieces, but the one taken on `to`, attack our king (or the square it
    // moves to) after the move.
    const Square guarded = p.piece == KING ? p.to : king;
    if (attackers_through_rays<Them>(pos, guarded, (occ ^ square_bb(from)) | target) & ~target) continue;
    matches.record(p.promotion != NO_PIECE_TYPE ? Move::make<PROMOTION>(from, p.to, p.promotion) : Move(from, p.to));
  }
  return true;
}

}  // namespace

SanResult parse_san(const Position& pos, std::string_view san) {
  const std::string_view text = strip_suffixes(san);
  SanPattern pattern;
  if (!parse_pattern(text, pattern)) {
    if (looks_like_uci(text)) {
      if (const auto move = parse_uci_move(pos, text)) return {*move, SanStatus::OK};
      return {Move{}, SanStatus::ILLEGAL};
    }
    return {Move{}, SanStatus::INVALID};
  }
  SanMatches resolved;
  if (pos.side_to_move == WHITE ? resolve_from_target<WHITE>(pos, pattern, resolved)
                                : resolve_from_target<BLACK>(pos, pattern, resolved))
    return resolved.result();
  SanMatchSink sink{pattern, {}};
  if (pos.side_to_move == WHITE) generate_legal<WHITE>(pos, sink);
  else generate_legal<BLACK>(pos, sink);
  return sink.matches.result();
}

std::string_view san_status_word(SanStatus status) {
  switch (status) {
    case SanStatus::OK: return "legal";
    case SanStatus::INVALID: return "invalid";
    case SanStatus::ILLEGAL: return "illegal";
    default: return "ambiguous";
  }
}

}  // namespace perftkit
