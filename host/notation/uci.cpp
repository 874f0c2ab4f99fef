#include "notation/uci.hpp"

#include <cctype>

#include "perftkit/movegen.hpp"

namespace perftkit {

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::string to_uci(Move m, bool chess960) {
  Square to = m.to();
  if (m.type() == CASTLING && !chess960) {
    const Color us = rank_of(m.from()) == RANK_1 ? WHITE : BLACK;
    to = castling_king_to(us, to > m.from() ? KING_SIDE : QUEEN_SIDE);
  }
  std::string text = square_name(m.from()) + square_name(to);
  if (m.type() == PROMOTION) text += " nbrq"[m.promotion_type() - KNIGHT + 1];
  return text;
}

std::optional<Move> parse_uci_move(const Position& pos, std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::optional<Move> found;
  for_each_legal_move(pos, [&](const Position&, Move m) {
    if (!found && (to_uci(m, false) == lower || to_uci(m, true) == lower)) found = m;
  });
  return found;
}

}  // namespace perftkit
