// UCI moves on any text: the first line is a FEN, the rest moves to play from it. A move
// is played only when it is legal (the result is a position the FEN reader accepts), and
// the first one that is not is named.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = text.find('\n');
  const perftkit::FenResult start = perftkit::parse_fen(text.substr(0, eol));
  if (!start || eol == std::string::npos) return 0;
  std::vector<std::string> words;
  std::istringstream rest(text.substr(eol + 1));
  for (std::string word; rest >> word && words.size() < 64;) words.push_back(word);
  perftkit::Position pos = start->position;
  for (const std::string& word : words) {
    const std::optional<perftkit::Move> move = perftkit::parse_uci_move(pos, word);
    if (move) FUZZ_CHECK(perftkit::parse_uci_move(pos, perftkit::to_uci(*move, start->chess960)) == move);
  }
  const std::optional<perftkit::IllegalMove> illegal = perftkit::play_uci_moves(pos, perftkit::split_moves(words));
  FUZZ_CHECK(perftkit::parse_fen(perftkit::to_fen(pos)));
  (void)illegal;
  return 0;
}
