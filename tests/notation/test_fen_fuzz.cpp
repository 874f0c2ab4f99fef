// Deterministic fuzzing of the FEN/EPD reader: mutated FENs must be either rejected with a
// message or accepted as a well-formed position that to_fen writes back exactly; positions
// reached by random legal play must round-trip and never raise a warning.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "perftkit/movegen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

const std::vector<std::string> SEEDS = {
    std::string(START_FEN),
    test_positions::KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K1RR w G - 0 1",
    "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
    "4k3/3P4/5N2/8/8/8/8/K3R3 b - - 0 1",
    "4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ",
};

// Bytes that make mutations likely to stay near the grammar.
constexpr std::string_view INTERESTING = "/12345678 pnbrqkPNBRQKwb-KQkqAHah;\"\t\r0936e";

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::string mutate(std::string text) {
    const int rounds = 1 + int(below(3));
    for (int i = 0; i < rounds; ++i) mutate_once(text);
    return text;
  }

  std::size_t below(std::size_t n) { return n ? std::size_t(rng_() % n) : 0; }

 private:
  char random_byte() { return below(2) ? INTERESTING[below(INTERESTING.size())] : char(below(256)); }

  void mutate_once(std::string& text) {
    const std::size_t at = below(text.size() + 1);
    switch (below(8)) {
      case 0:
        if (at < text.size()) text[at] = char(text[at] ^ (1 << below(8)));
        break;
      case 1: text.insert(at, 1, random_byte()); break;
      case 2:
        if (at < text.size()) text.erase(at, 1 + below(3));
        break;
      case 3: text.resize(at); break;
      case 4: swap_fields(text); break;
      case 5:
        if (at < text.size()) text[at] = char('0' + below(10));
        break;
      case 6: text.insert(at, std::string(1 + below(25), char('0' + below(10)))); break;
      default:
        if (at < text.size()) text[at] = random_byte();
        break;
    }
  }

  void swap_fields(std::string& text) {
    std::vector<std::string> fields;
    for (std::size_t start = 0; start <= text.size();) {
      const std::size_t space = std::min(text.find(' ', start), text.size());
      fields.push_back(text.substr(start, space - start));
      start = space + 1;
    }
    std::swap(fields[below(fields.size())], fields[below(fields.size())]);
    text.clear();
    for (std::size_t i = 0; i < fields.size(); ++i) text += (i ? " " : "") + fields[i];
  }

  std::mt19937_64 rng_;
};

// What is wrong with an accepted position; empty when it is well formed.
std::string invariant_problem(const ParsedPosition& parsed) {
  const Position& p = parsed.position;
  const Bitboard occ = p.occupied();
  if (p.by_color[WHITE] & p.by_color[BLACK]) return "colours overlap";
  for (const Color c : {WHITE, BLACK})
    if (popcount(p.pieces(c, KING)) != 1) return "not exactly one king per side";
  if ((p.pawns | p.knights | p.diagonal | p.orthogonal | p.kings) != occ) return "piece boards differ from colours";
  const Bitboard kinds[] = {p.pawns, p.knights, p.diagonal | p.orthogonal, p.kings};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      if (kinds[i] & kinds[j]) return "piece boards overlap";
  if (p.pawns & (rank_bb(RANK_1) | rank_bb(RANK_8))) return "pawn on the first or last rank";
  const Bitboard castling_home = (p.by_color[WHITE] & rank_bb(RANK_1)) | (p.by_color[BLACK] & rank_bb(RANK_8));
  if (p.castling_rooks & ~(p.rooks() & castling_home)) return "castling right without its rook";
  if (p.ep_square != SQ_NONE && relative_rank(p.side_to_move, rank_of(p.ep_square)) != RANK_6)
    return "en-passant square off the sixth rank of the side to move";
  if (p.ep_square != SQ_NONE && (square_bb(p.ep_square) & occ)) return "occupied en-passant square";
  if (p.fullmove_number == 0) return "fullmove number 0";
  if (parsed.warnings &
      ~std::uint32_t(WARN_TOO_MANY_PIECES | WARN_TOO_MANY_PAWNS | WARN_TOO_MANY_CHECKERS | WARN_IMPOSSIBLE_CHECK))
    return "unknown warning bits";
  const std::string fen = to_fen(p);
  const FenResult again = parse_fen(fen);
  if (!again) return "to_fen wrote '" + fen + "', which is rejected: " + again.error;
  if (!(again->position == p)) return "to_fen wrote '" + fen + "', which reads back differently";
  if (to_fen(again->position) != fen) return "to_fen is not stable for '" + fen + "'";
  return {};
}

// Every call returns a position or a non-empty reason; returns whether it was accepted.
bool check_result(const FenResult& result, const std::string& input) {
  if (!result) {
    EXPECT_FALSE(result.error.empty()) << "empty error for " << testing::PrintToString(input);
    return false;
  }
  EXPECT_EQ(invariant_problem(*result), "") << "input " << testing::PrintToString(input);
  return true;
}

TEST(FenFuzz, MutatedFensAreRejectedOrWellFormed) {
  constexpr int CASES = 40000;
  Mutator mutator(0x5EEDF00DULL);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < CASES && !HasFailure(); ++i) {
    const std::string input = mutator.mutate(SEEDS[mutator.below(SEEDS.size())]);
    (check_result(parse_fen(input), input) ? accepted : rejected) += 1;
    check_result(parse_epd(input), input);
  }
  // Both paths must be exercised, or the fuzzing proves nothing.
  EXPECT_GT(accepted, CASES / 50);
  EXPECT_GT(rejected, CASES / 2);
}

TEST(FenFuzz, RandomBytesAreRejectedOrWellFormed) {
  Mutator mutator(42);
  for (int i = 0; i < 20000 && !HasFailure(); ++i) {
    std::string input(mutator.below(120), '\0');
    for (char& ch : input) ch = char(mutator.below(256));
    check_result(parse_fen(input), input);
    check_result(parse_epd(input), input);
  }
}

// Positions reached by legal play from standard and Chess960 starts: exact round trips
// through to_fen, and never a warning (every such check has a legal last move).
TEST(FenFuzz, PositionsFromRandomPlayRoundTrip) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> starts = {std::string(START_FEN), SEEDS[1], SEEDS[3], SEEDS[8], SEEDS[9]};
  int positions = 0;
  for (int game = 0; game < 400 && !HasFailure(); ++game) {
    const FenResult start = parse_fen(starts[std::size_t(game) % starts.size()]);
    ASSERT_TRUE(start) << start.error;
    Position pos = start->position;
    for (int ply = 0; ply < 200; ++ply) {
      std::vector<Position> children;
      for_each_legal_move(pos, [&](const Position& child, Move) { children.push_back(child); });
      if (children.empty()) break;
      pos = children[std::size_t(rng() % children.size())];
      const std::string fen = to_fen(pos);
      const FenResult again = parse_fen(fen);
      ASSERT_TRUE(again) << fen << ": " << again.error;
      ASSERT_EQ(again->position, pos) << fen;
      ASSERT_EQ(again->warnings, WARN_NONE) << fen;
      ++positions;
    }
  }
  EXPECT_GT(positions, 20000);
}

}  // namespace
}  // namespace perftkit
