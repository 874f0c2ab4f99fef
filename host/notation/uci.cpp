#include "notation/uci.hpp"

#include <cctype>
#include <sstream>

#include "perftkit/movegen.hpp"

namespace perftkit {

namespace {

// A square's name, "a1" to "h8", written at out; returns its end.
char* write_square_name(Square s, char* out) {
  *out++ = char('a' + file_of(s));
  *out++ = char('1' + rank_of(s));
  return out;
}

}  // namespace

std::string square_name(Square s) {
  char text[2];
  return std::string(text, write_square_name(s, text));
}

char* write_uci(Move m, bool chess960, char* out) {
  Square to = m.to();
  if (m.type() == CASTLING && !chess960) {
    const Color us = rank_of(m.from()) == RANK_1 ? WHITE : BLACK;
    to = castling_king_to(us, to > m.from() ? KING_SIDE : QUEEN_SIDE);
  }
  out = write_square_name(to, write_square_name(m.from(), out));
  if (m.type() == PROMOTION) *out++ = " nbrq"[m.promotion_type() - KNIGHT + 1];
  return out;
}

std::string to_uci(Move m, bool chess960) {
  char text[UCI_MAX_BYTES];
  return std::string(text, write_uci(m, chess960, text));
}

bool looks_like_uci(std::string_view text) {
  const auto square_at = [&](std::size_t i) {
    return text[i] >= 'a' && text[i] <= 'h' && text[i + 1] >= '1' && text[i + 1] <= '8';
  };
  return (text.size() == 4 || text.size() == 5) && square_at(0) && square_at(2);
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

std::vector<std::string> split_moves(const std::vector<std::string>& texts) {
  std::vector<std::string> words;
  for (const std::string& text : texts) {
    std::istringstream in(text);
    for (std::string word; in >> word;) words.push_back(word);
  }
  return words;
}

std::optional<IllegalMove> play_uci_moves(Position& pos, const std::vector<std::string>& moves) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::optional<Move> move = parse_uci_move(pos, moves[i]);
    if (!move) return IllegalMove{i + 1, moves[i]};
    pos = make_move(pos, *move);
  }
  return std::nullopt;
}

}  // namespace perftkit
