// FEN and EPD: parsing with validation (fen_write.cpp writes them, fen_warnings.cpp judges
// what a position may be counted despite).
#include "notation/fen.hpp"
#include "notation/castling_rooks.hpp"
#include "notation/fen_warnings.hpp"
#include "notation/quoted_text.hpp"
#include "common/blank_bytes.hpp"
#include "common/decimal_text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

// Empty when a field is fine, else the reason it was rejected ("field: problem").
using Problem = std::string;

struct Clocks {
  std::uint16_t halfmove = 0;
  std::uint32_t fullmove = 1;
};

constexpr std::string_view PIECE_LETTERS = "PNBRQKpnbrqk";

FenResult fail(Problem problem) { return {std::nullopt, std::move(problem)}; }

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
bool is_letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
char to_lower(char ch) { return ch >= 'A' && ch <= 'Z' ? char(ch + ('a' - 'A')) : ch; }
char to_upper(char ch) { return ch >= 'a' && ch <= 'z' ? char(ch - ('a' - 'A')) : ch; }

std::string_view color_name(Color c) { return c == WHITE ? "white" : "black"; }
std::string_view side_name(Color c) { return c == WHITE ? "White" : "Black"; }
std::string_view castling_side_name(CastlingSide side) { return side == KING_SIDE ? "king" : "queen"; }

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

// Text for a message, quoted (quoted_text.hpp), long text cut short.
constexpr std::size_t MAX_SHOWN = 24;
std::string quoted_short(std::string_view text) { return quoted_text(text, MAX_SHOWN); }
std::string quoted_short(char ch) { return quoted_text(std::string_view(&ch, 1)); }

// The first blank in [p, end), or end. Eight bytes at a time: the lowest flagged byte of a word
// is its first byte below 0x21 (every blank is one; other control bytes are stepped over).
const char* find_blank(const char* p, const char* end) {
  constexpr std::uint64_t ONES = 0x0101010101010101ULL, HIGHS = 0x8080808080808080ULL;
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    const std::uint64_t low = (word - 0x21 * ONES) & ~word & HIGHS;
    if (!low) {
      p += 8;
      continue;
    }
    p += std::countr_zero(low) >> 3;
    if (is_blank(*p)) return p;
    ++p;
  }
  while (p != end && !is_blank(*p)) ++p;
  return p;
}

// The blank-separated fields of text, eight bytes at a time, as next_token splits them;
// returns how many, or fields.size() + 1 when there are more.
template <std::size_t N>
std::size_t split_fields(std::string_view text, std::array<std::string_view, N>& fields) {
  std::size_t count = 0, start = 0;
  for (std::size_t at = 0; at < text.size(); at += 8) {
    std::uint64_t word = 0;  // bytes past the end read as NUL, a blank
    if (text.size() - at >= 8) {
      std::memcpy(&word, text.data() + at, 8);
    } else {
      for (std::size_t i = at; i < text.size(); ++i) word |= std::uint64_t(std::uint8_t(text[i])) << (8 * (i - at));
    }
    for (std::uint64_t blanks = blank_bytes(word); blanks; blanks &= blanks - 1) {
      const std::size_t blank = at + (std::size_t(std::countr_zero(blanks)) >> 3);
      if (blank > start) {
        if (count == N) return N + 1;
        fields[count++] = text.substr(start, blank - start);
      }
      start = blank + 1;
    }
  }
  if (start < text.size()) {
    if (count == N) return N + 1;
    fields[count++] = text.substr(start);
  }
  return count;
}

// Skips blanks and splits off the text up to the next blank (or, for an EPD position field,
// the next ';' too); empty at the end of the text.
std::string_view next_token(std::string_view& rest, bool stop_at_semicolon = false) {
  const char* p = rest.data();
  const char* const end = p + rest.size();
  while (p != end && is_blank(*p)) ++p;
  const char* const begin = p;
  if (stop_at_semicolon) {
    while (p != end && !is_blank(*p) && *p != ';') ++p;
  } else {
    p = find_blank(p, end);
  }
  rest = std::string_view(p, std::size_t(end - p));
  return std::string_view(begin, std::size_t(p - begin));
}

// A count written as decimal digits only (no sign) and no larger than max.
Problem parse_count(std::string_view text, std::string_view what, std::uint64_t max, std::uint64_t& value) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), is_digit))
    return "clock: " + std::string(what) + " " + quoted_short(text) + " is not a non-negative integer";
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range || value > max)
    return "clock: " + std::string(what) + " " + quoted_short(text) + " is larger than " + std::to_string(max);
  return {};
}

Problem parse_halfmove(std::string_view text, Clocks& clocks) {
  std::uint64_t value = 0;
  Problem problem = parse_count(text, "halfmove clock", UINT16_MAX, value);
  clocks.halfmove = std::uint16_t(value);
  return problem;
}

// Fullmove 0, which some writers emit, is read as 1; the field is 32 bits.
Problem parse_fullmove(std::string_view text, Clocks& clocks) {
  std::uint64_t value = 0;
  Problem problem = parse_count(text, "fullmove number", UINT32_MAX, value);
  clocks.fullmove = std::uint32_t(std::max<std::uint64_t>(value, 1));
  return problem;
}

// Puts the piece written as `letter` (PNBRQK white, pnbrqk black) on s.
void place_piece(Position& pos, char letter, Square s) {
  const Bitboard b = square_bb(s);
  pos.by_color[letter >= 'a' ? BLACK : WHITE] |= b;
  switch (to_lower(letter)) {
    case 'p': pos.pawns |= b; break;
    case 'n': pos.knights |= b; break;
    case 'b': pos.diagonal |= b; break;
    case 'r': pos.orthogonal |= b; break;
    case 'q':
      pos.diagonal |= b;
      pos.orthogonal |= b;
      break;
    default: pos.kings |= b; break;
  }
}

// One rank of the board field: piece letters, and digits 1-8 for runs of empty squares
// (never two digits in a row), eight squares in all.
Problem parse_rank(std::string_view text, int rank, Position& pos) {
  const std::string where = " in rank " + std::to_string(rank + 1);
  std::uint64_t squares = 0;
  bool after_digit = false;
  for (const char ch : text) {
    const bool digit = is_digit(ch);
    if (ch == '0' || ch == '9')
      return "board: digit " + quoted_short(ch) + where + " is not a run of 1 to 8 empty squares";
    if (digit && after_digit) return "board: two digits in a row" + where + " (one digit per run of empty squares)";
    if (!digit && is_letter(ch) && PIECE_LETTERS.find(ch) == std::string_view::npos)
      return "board: unknown piece letter " + quoted_short(ch) + where;
    if (!digit && !is_letter(ch)) return "board: unexpected character " + quoted_short(ch) + where;
    squares += digit ? std::uint64_t(ch - '0') : 1;
    after_digit = digit;
  }
  if (squares != 8)
    return "board: rank " + std::to_string(rank + 1) + " has " + std::to_string(squares) + " squares, expected 8";
  int file = 0;
  for (const char ch : text) {
    if (is_digit(ch)) file += ch - '0';
    else place_piece(pos, ch, make_square(file++, rank));
  }
  return {};
}

// The board field: eight ranks separated by '/', from rank 8 down to rank 1.
Problem parse_board(std::string_view field, Position& pos) {
  std::array<std::string_view, 8> ranks;
  std::size_t count = 0;
  for (std::size_t start = 0;; ++count) {
    if (count == ranks.size()) return "board: expected 8 ranks separated by '/', got more than 8";
    const std::size_t slash = field.find('/', start);
    ranks[count] = field.substr(start, slash == std::string_view::npos ? slash : slash - start);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (count + 1 != ranks.size()) return "board: expected 8 ranks separated by '/', got " + std::to_string(count + 1);
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (Problem problem = parse_rank(ranks[i], 7 - int(i), pos); !problem.empty()) return problem;
  return {};
}

Problem parse_side(std::string_view field, Position& pos) {
  if (field != "w" && field != "b") return "side to move: expected 'w' or 'b', got " + quoted_short(field);
  pos.side_to_move = field == "w" ? WHITE : BLACK;
  return {};
}

// Exactly one king per side, and no pawn on the first or last rank.
Problem check_material(const Position& pos) {
  for (const Color c : {WHITE, BLACK}) {
    const int kings = popcount(pos.pieces(c, KING));
    if (kings != 1)
      return "board: " + std::string(color_name(c)) + " has " + std::to_string(kings) + " kings, expected exactly one";
  }
  const Bitboard stray_pawns = pos.pawns & (rank_bb(RANK_1) | rank_bb(RANK_8));
  if (stray_pawns) {
    const Square s = Square(lsb(stray_pawns));
    return "board: " + std::string(color_name(pos.by_color[WHITE] & square_bb(s) ? WHITE : BLACK)) + " pawn on " +
           square_name(s) + " (pawns cannot stand on the first or last rank)";
  }
  return {};
}

// One castling letter: K/Q (k/q) name the outermost rook on that side of the king, A-H (a-h)
// the rook on that file; either way king and rook stand on their colour's back rank.
Problem castling_rook_of(const Position& pos, char letter, Color c, Square& rook, CastlingSide& side) {
  const char upper = to_upper(letter);
  const std::string named = quoted_short(letter) + " but ";
  const Square king = pos.king_square(c);
  if (relative_rank(c, rank_of(king)) != RANK_1)
    return "castling: " + named + "the " + std::string(color_name(c)) + " king is not on its back rank";
  if (upper == 'K' || upper == 'Q') {
    side = upper == 'K' ? KING_SIDE : QUEEN_SIDE;
    const Bitboard rooks = back_rank_rooks(pos, c, side);
    if (!rooks)
      return "castling: " + named + "no " + std::string(color_name(c)) + " rook on the " +
             std::string(castling_side_name(side)) + " side of the king";
    rook = outermost(rooks, side);
    return {};
  }
  rook = make_square(upper - 'A', relative_rank(c, RANK_1));
  if (!(pos.pieces(c, ROOK) & square_bb(rook)))
    return "castling: " + named + "no " + std::string(color_name(c)) + " rook on " + square_name(rook);
  side = rook > king ? KING_SIDE : QUEEN_SIDE;
  return {};
}

// A right is standard when the king is on the e-file and its rook in the corner of that side.
bool standard_right(Color c, Square king, Square rook, CastlingSide side) {
  return king == relative_square(c, SQ_E1) && rook == relative_square(c, side == KING_SIDE ? SQ_H1 : SQ_A1);
}

// The castling field: '-' or distinct letters from KQkq and A-H/a-h, at most one right
// per side and colour. Sets chess960 when a right is not standard or a file letter is used.
Problem parse_castling(std::string_view field, Position& pos, bool& chess960) {
  if (field == "-") return {};
  std::array<std::array<char, 2>, COLOR_NB> letter_of{};  // [colour][side], 0 when unused
  for (std::size_t i = 0; i < field.size(); ++i) {
    const char letter = field[i];
    const char upper = to_upper(letter);
    if (upper != 'K' && upper != 'Q' && (upper < 'A' || upper > 'H'))
      return "castling: unexpected character " + quoted_short(letter) + " (expected '-', KQkq or file letters A-H/a-h)";
    if (field.find(letter) != i) return "castling: duplicate " + quoted_short(letter);
    const Color c = letter == upper ? WHITE : BLACK;
    Square rook = SQ_NONE;
    CastlingSide side = KING_SIDE;
    if (Problem problem = castling_rook_of(pos, letter, c, rook, side); !problem.empty()) return problem;
    if (letter_of[c][side])
      return "castling: two " + std::string(color_name(c)) + " " + std::string(castling_side_name(side)) +
             "-side rights (" + quoted_short(letter_of[c][side]) + " and " + quoted_short(letter) + ")";
    letter_of[c][side] = letter;
    pos.castling_rooks |= square_bb(rook);
    chess960 |= (upper != 'K' && upper != 'Q') || !standard_right(c, pos.king_square(c), rook, side);
  }
  return {};
}

// The en-passant field: '-' or the square on the mover's sixth rank that an enemy pawn just
// crossed with a double push: the pawn stands in front of it, it and the pawn's origin are empty.
Problem parse_en_passant(std::string_view field, const Position& pos, Square& ep) {
  ep = SQ_NONE;
  if (field == "-") return {};
  if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
    return "en passant: " + quoted_short(field) + " is not a square or '-'";
  const Color us = pos.side_to_move, them = ~us;
  const Square s = make_square(field[0] - 'a', field[1] - '1');
  if (relative_rank(us, rank_of(s)) != RANK_6)
    return "en passant: " + square_name(s) + " is not on rank " + (us == WHITE ? "6" : "3") +
           ", where it must be with " + std::string(side_name(us)) + " to move";
  const int up = us == WHITE ? NORTH : SOUTH;
  const Square pawn = Square(s - up), origin = Square(s + up);
  if (!(pos.pieces(them, PAWN) & square_bb(pawn)))
    return "en passant: " + square_name(s) + " has no " + std::string(color_name(them)) + " pawn in front of it on " +
           square_name(pawn);
  if (pos.occupied() & square_bb(s)) return "en passant: " + square_name(s) + " is occupied";
  if (pos.occupied() & square_bb(origin))
    return "en passant: " + square_name(origin) + ", the origin of the pawn that moved two squares, is occupied";
  ep = s;
  return {};
}

// The side that has just moved cannot have left its own king attacked.
Problem check_side_not_to_move(const Position& pos) {
  const Color them = ~pos.side_to_move;
  const Square king = pos.king_square(them);
  const bool attacked =
      them == WHITE ? attacked_by<BLACK>(pos, king, pos.occupied()) : attacked_by<WHITE>(pos, king, pos.occupied());
  if (attacked) return "position: the side not to move (" + std::string(side_name(them)) + ") is in check";
  return {};
}

// The en-passant square is kept only when a pawn of the side to move attacks it, as
// make_move records it, so that equal positions compare equal.
Square capturable_ep(const Position& pos, Square ep) {
  if (ep == SQ_NONE) return SQ_NONE;
  const Color us = pos.side_to_move;
  return (pawn_attacks(~us, ep) & pos.pieces(us, PAWN)) ? ep : SQ_NONE;
}

// What each byte of the board field means to the fast reader, one table per property: the
// piece it places (1 + index in PIECE_LETTERS, 0 for none), the squares it covers (65 for a
// byte the fast reader leaves to parse_board, so that the board cannot end on square 64),
// and its class (1 a digit, 2 a '/').
struct BoardBytes {
  std::array<std::uint8_t, 256> piece{}, advance{}, kind{};
};

constexpr BoardBytes BOARD_BYTES = [] {
  BoardBytes b;
  for (std::uint8_t& a : b.advance) a = 65;
  for (std::size_t i = 0; i < PIECE_LETTERS.size(); ++i) {
    b.piece[std::uint8_t(PIECE_LETTERS[i])] = std::uint8_t(i + 1);
    b.advance[std::uint8_t(PIECE_LETTERS[i])] = 1;
  }
  for (unsigned d = 1; d <= 8; ++d) {
    b.advance['0' + d] = std::uint8_t(d);
    b.kind['0' + d] = 1;
  }
  b.advance['/'] = 0;
  b.kind['/'] = 2;
  return b;
}();

// The board field on the fast path, without a branch per byte: true, with pos set exactly as
// parse_board sets it, when the field is well formed; false whenever parse_board must judge it.
// The cursor counts squares in FEN order (a8 = 0, h1 = 63): the seven '/' must stand at
// cursors 8, 16, ..., 56 (each closes a full rank), the last rank must end at 64, and no
// two digits (or two '/') may follow each other.
bool parse_board_fast(std::string_view field, Position& pos) {
  constexpr Bitboard RANK_ENDS = 0x0101010101010100ULL;  // bits 8, 16, ..., 56
  Bitboard by_piece[13] = {};  // [0] collects digits and slashes, then 1 + index in PIECE_LETTERS
  Bitboard slash_at = 0;
  unsigned cursor = 0, pairs = 0, previous = 0;
  for (const char ch : field) {
    const std::uint8_t byte = std::uint8_t(ch);
    const unsigned kind = BOARD_BYTES.kind[byte];
    by_piece[BOARD_BYTES.piece[byte]] |= square_bb(int((cursor ^ 56) & 63));
    slash_at |= Bitboard(kind >> 1) << (cursor & 63);
    pairs |= kind & previous;
    previous = kind;
    cursor += BOARD_BYTES.advance[byte];
  }
  if (cursor != 64 || pairs || slash_at != RANK_ENDS) return false;
  for (const Color c : {WHITE, BLACK}) {
    const Bitboard* own = by_piece + 1 + 6 * c;  // P N B R Q K
    pos.by_color[c] = own[0] | own[1] | own[2] | own[3] | own[4] | own[5];
    pos.pawns |= own[0];
    pos.knights |= own[1];
    pos.diagonal |= own[2] | own[4];
    pos.orthogonal |= own[3] | own[4];
    pos.kings |= own[5];
  }
  return true;
}

// The castling field on the fast path: '-' or distinct letters of KQkq, each naming a rook in
// its corner with the king on its e-file square. True with the rights set exactly as
// parse_castling sets them (none of these is a Chess960 right); false when it must judge them.
bool parse_castling_fast(std::string_view field, Position& pos) {
  if (field.size() == 1 && field[0] == '-') return true;
  if (field.empty() || field.size() > 4) return false;
  unsigned seen = 0;
  Bitboard rights = 0;
  for (const char letter : field) {
    const std::size_t index = std::string_view("KQkq").find(letter);
    if (index == std::string_view::npos || (seen & (1u << index))) return false;
    seen |= 1u << index;
    const Color c = index < 2 ? WHITE : BLACK;
    const Square rook = relative_square(c, index % 2 == 0 ? SQ_H1 : SQ_A1);
    if (!(pos.pieces(c, KING) & square_bb(relative_square(c, SQ_E1))) || !(pos.pieces(c, ROOK) & square_bb(rook)))
      return false;
    rights |= square_bb(rook);
  }
  pos.castling_rooks |= rights;
  return true;
}

// A clock on the fast path: 1 to 9 digits, no larger than max (else the validating path judges it).
bool parse_clock_fast(std::string_view text, std::uint64_t max, std::uint64_t& value) {
  if (text.empty() || text.size() > 9) return false;
  value = 0;
  for (const char ch : text) {
    if (!is_digit(ch)) return false;
    value = value * 10 + std::uint64_t(ch - '0');
  }
  return value <= max;
}

// Rule: the fast path of parse_fen. True, with parsed set exactly as the validating path sets
// it, for a FEN that path accepts in its common form (KQkq castling, clocks of up to 9 digits);
// false for anything else, which the validating path then judges, so every error and its
// message comes from one place.
bool parse_fen_fast(std::string_view fen, ParsedPosition& parsed) {
  std::array<std::string_view, 6> fields;
  const std::size_t count = split_fields(fen, fields);
  if (count < 4 || count > fields.size()) return false;
  Position& pos = parsed.position;
  if (!parse_board_fast(fields[0], pos) || fields[1].size() != 1 || (fields[1][0] != 'w' && fields[1][0] != 'b'))
    return false;
  pos.side_to_move = fields[1][0] == 'w' ? WHITE : BLACK;
  if (popcount(pos.pieces(WHITE, KING)) != 1 || popcount(pos.pieces(BLACK, KING)) != 1 ||
      (pos.pawns & (rank_bb(RANK_1) | rank_bb(RANK_8))) || !parse_castling_fast(fields[2], pos))
    return false;
  Square ep = SQ_NONE;
  if ((fields[3].size() != 1 || fields[3][0] != '-') && !parse_en_passant(fields[3], pos, ep).empty()) return false;
  std::uint64_t halfmove = 0, fullmove = 1;
  if ((count > 4 && !parse_clock_fast(fields[4], UINT16_MAX, halfmove)) ||
      (count > 5 && !parse_clock_fast(fields[5], UINT32_MAX, fullmove)))
    return false;
  const Color us = pos.side_to_move;
  const Bitboard occ = pos.occupied();
  const bool us_attacked = us == WHITE ? attacked_by<BLACK>(pos, pos.king_square(WHITE), occ)
                                       : attacked_by<WHITE>(pos, pos.king_square(BLACK), occ);
  const bool them_attacked = us == WHITE ? attacked_by<WHITE>(pos, pos.king_square(BLACK), occ)
                                         : attacked_by<BLACK>(pos, pos.king_square(WHITE), occ);
  if (them_attacked) return false;
  pos.halfmove_clock = std::uint16_t(halfmove);
  pos.fullmove_number = std::uint32_t(std::max<std::uint64_t>(fullmove, 1));
  parsed.warnings = material_warnings(pos);
  if (us_attacked) parsed.warnings |= check_warnings(pos, ep);
  pos.ep_square = capturable_ep(pos, ep);
  return true;
}

// The four position fields (board, side, castling, en passant) with the clocks, validated.
FenResult build_position(const std::array<std::string_view, 4>& fields, Clocks clocks) {
  ParsedPosition parsed;
  Position& pos = parsed.position;
  Square ep = SQ_NONE;
  Problem problem = parse_board(fields[0], pos);
  if (problem.empty()) problem = parse_side(fields[1], pos);
  if (problem.empty()) problem = check_material(pos);
  if (problem.empty()) problem = parse_castling(fields[2], pos, parsed.chess960);
  if (problem.empty()) problem = parse_en_passant(fields[3], pos, ep);
  if (problem.empty()) problem = check_side_not_to_move(pos);
  if (!problem.empty()) return fail(std::move(problem));
  pos.halfmove_clock = clocks.halfmove;
  pos.fullmove_number = clocks.fullmove;
  parsed.warnings = material_warnings(pos) | check_warnings(pos, ep);
  pos.ep_square = capturable_ep(pos, ep);
  return {parsed, {}};
}

// Splits off the next EPD operation, up to a ';' outside double quotes; false for an
// unterminated string.
bool next_operation(std::string_view& rest, std::string_view& operation) {
  bool in_string = false;
  std::size_t end = 0;
  for (; end < rest.size() && (in_string || rest[end] != ';'); ++end)
    if (rest[end] == '"') in_string = !in_string;
  if (in_string) return false;
  operation = rest.substr(0, end);
  rest.remove_prefix(std::min(end + 1, rest.size()));
  return true;
}

// The FEN clocks some EPD files write before their operations ("0 1 ;D1 20").
Problem parse_fen_style_clocks(std::string_view operation, Clocks& clocks) {
  const std::string_view halfmove = next_token(operation), fullmove = next_token(operation);
  if (!next_token(operation).empty())
    return "epd: expected at most two clock numbers before the operations, got " + quoted_short(operation);
  Problem problem = parse_halfmove(halfmove, clocks);
  if (problem.empty() && !fullmove.empty()) problem = parse_fullmove(fullmove, clocks);
  return problem;
}

// One operation: an opcode starting with a letter, then operands; hmvc and fmvn take one
// integer and set the clocks, other opcodes are ignored.
Problem parse_operation(std::string_view operation, Clocks& clocks) {
  const std::string_view opcode = next_token(operation);
  if (opcode.empty()) return {};
  if (!is_letter(opcode[0])) return "epd: operation " + quoted_short(opcode) + " does not start with an opcode";
  if (opcode != "hmvc" && opcode != "fmvn") return {};
  const std::string_view operand = next_token(operation);
  if (operand.empty() || !next_token(operation).empty())
    return "epd: " + std::string(opcode) + " takes exactly one operand";
  return opcode == "hmvc" ? parse_halfmove(operand, clocks) : parse_fullmove(operand, clocks);
}

// The operations after the position fields, each ended by ';' (the last one may omit it).
Problem parse_operations(std::string_view rest, Clocks& clocks) {
  for (bool first = true; !rest.empty(); first = false) {
    std::string_view operation;
    if (!next_operation(rest, operation)) return "epd: unterminated string in the operations";
    std::string_view peek = operation;
    const std::string_view head = next_token(peek);
    Problem problem = first && !head.empty() && is_digit(head[0]) ? parse_fen_style_clocks(operation, clocks)
                                                                  : parse_operation(operation, clocks);
    if (!problem.empty()) return problem;
  }
  return {};
}

}  // namespace

FenResult parse_fen(std::string_view fen) {
  if (ParsedPosition parsed; parse_fen_fast(fen, parsed)) return {parsed, {}};
  std::array<std::string_view, 6> fields;
  std::size_t count = 0;
  for (std::string_view token = next_token(fen); !token.empty(); token = next_token(fen)) {
    if (count == fields.size()) return fail("fen: expected 4 to 6 fields, got more than 6");
    fields[count++] = token;
  }
  if (count == 1 && fields[0] == "startpos") return parse_fen(START_FEN);
  if (count < 4) return fail("fen: expected 4 to 6 fields, got " + std::to_string(count));
  Clocks clocks;
  Problem problem = count > 4 ? parse_halfmove(fields[4], clocks) : Problem{};
  if (problem.empty() && count > 5) problem = parse_fullmove(fields[5], clocks);
  if (!problem.empty()) {
    // The board and the fields after it are reported before the clocks: "this is not a fen"
    // is a bad board, not a bad clock.
    FenResult position = build_position({fields[0], fields[1], fields[2], fields[3]}, Clocks{});
    return position ? fail(std::move(problem)) : position;
  }
  return build_position({fields[0], fields[1], fields[2], fields[3]}, clocks);
}

FenResult parse_epd(std::string_view epd) {
  std::array<std::string_view, 4> fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    fields[i] = next_token(epd, true);
    if (fields[i].empty()) return fail("epd: expected 4 position fields, got " + std::to_string(i));
  }
  Clocks clocks;
  if (Problem problem = parse_operations(epd, clocks); !problem.empty()) {
    FenResult position = build_position(fields, Clocks{});  // the board is reported first, as in parse_fen
    return position ? fail(std::move(problem)) : position;
  }
  return build_position(fields, clocks);
}

}  // namespace perftkit
