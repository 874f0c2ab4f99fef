#include "enginediff/random_positions.hpp"

#include <array>
#include <cctype>

#include "notation/fen.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {
namespace {

// splitmix64: a small generator whose output is the same everywhere (std's distributions
// are not).
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

// The weight of a move in the walk: the rule-rich kinds are played far more often.
unsigned weight_of(const Position& pos, const Position& child, Move m) {
  switch (m.type()) {
    case EN_PASSANT: return 24;
    case CASTLING: return 16;
    case PROMOTION: return 8;
    default: break;
  }
  if (in_check(child)) return 4;
  if (pos.by_color[~pos.side_to_move] & square_bb(m.to())) return 3;
  return 1;
}

// A position where a generator has something to get wrong: en passant, castling or a
// promotion is legal, or the side to move is in check.
bool rule_rich(const Position& pos) {
  if (in_check(pos)) return true;
  bool found = false;
  for_each_legal_move(pos, [&](const Position&, Move m) { found = found || m.type() != NORMAL; });
  return found;
}

struct Step {
  Move move;
  Position child;
  unsigned weight;
};

}  // namespace

std::string chess960_start_fen(int n) {
  std::array<char, 8> rank{};
  auto place_in_empty = [&rank](int index, char piece) {
    for (char& square : rank)
      if (!square && index-- == 0) {
        square = piece;
        return;
      }
  };
  rank[std::size_t(2 * (n % 4) + 1)] = 'B';  // light-squared bishop: b, d, f or h file
  n /= 4;
  rank[std::size_t(2 * (n % 4))] = 'B';  // dark-squared bishop: a, c, e or g file
  n /= 4;
  place_in_empty(n % 6, 'Q');
  n /= 6;
  static constexpr int KNIGHTS[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                         {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  place_in_empty(KNIGHTS[n][1], 'N');  // the later square first, so the earlier index still holds
  place_in_empty(KNIGHTS[n][0], 'N');
  place_in_empty(0, 'R');
  place_in_empty(0, 'K');
  place_in_empty(0, 'R');
  std::string white(rank.begin(), rank.end()), black = white, rights;
  for (char& c : black) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (int file = 7; file >= 0; --file)
    if (white[std::size_t(file)] == 'R') rights += char('A' + file);
  for (int file = 7; file >= 0; --file)
    if (white[std::size_t(file)] == 'R') rights += char('a' + file);
  return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + rights + " - 0 1";
}

std::vector<RandomPosition> random_positions(std::size_t count, std::uint64_t seed, bool chess960) {
  SplitMix rng{seed};
  std::vector<RandomPosition> positions;
  while (positions.size() < count) {
    RandomPosition sample;
    std::string start_fen(START_FEN);
    sample.start = "standard";
    if (chess960 && positions.size() % 2 == 1) {
      const int n = int(rng.below(960));
      start_fen = chess960_start_fen(n);
      sample.start = "chess960 #" + std::to_string(n);
    }
    Position pos = parse_fen(start_fen)->position;
    const int walk = 8 + int(rng.below(60));
    for (int ply = 0; ply < walk + 16 && !(ply >= walk && rule_rich(pos)); ++ply) {
      std::vector<Step> steps;
      unsigned total = 0;
      for_each_legal_move(pos, [&](const Position& child, Move m) {
        steps.push_back({m, child, weight_of(pos, child, m)});
        total += steps.back().weight;
      });
      if (steps.empty()) break;  // mate or stalemate: the sample starts again below
      unsigned pick = unsigned(rng.below(total));
      std::size_t i = 0;
      while (pick >= steps[i].weight) pick -= steps[i++].weight;
      pos = steps[i].child;
      sample.plies = ply + 1;
    }
    if (count_moves(pos) == 0) continue;
    sample.fen = to_fen(pos);
    positions.push_back(std::move(sample));
  }
  return positions;
}

}  // namespace perftkit
