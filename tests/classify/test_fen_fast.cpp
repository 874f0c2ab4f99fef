// parse_fen's fast path must decide exactly as the validating path: every FEN, mutated or not,
// gives the same position, warnings and flags (or the same error) as the same fields read as
// an EPD line with FEN-style clocks, which always takes the validating path.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "support/standard_positions.hpp"

namespace perftkit {
namespace {

const std::vector<std::string> SEEDS = {
    std::string(START_FEN),
    test_positions::KIWIPETE,
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1",
    "4r1k1/8/8/8/8/8/8/r3K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 99 120",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 65535 4294967295",
};

constexpr std::string_view MUTATION_BYTES = "/12345678pnbrqkPNBRQK wb-KQkqAHah09e";

std::string mutate(std::string fen, std::mt19937_64& rng) {
  const auto below = [&](std::size_t n) { return std::size_t(rng() % n); };
  for (std::size_t round = 0, rounds = 1 + below(3); round < rounds; ++round) {
    const std::size_t at = below(fen.size());
    switch (below(4)) {
      case 0: fen[at] = MUTATION_BYTES[below(MUTATION_BYTES.size())]; break;
      case 1: fen.insert(at, 1, MUTATION_BYTES[below(MUTATION_BYTES.size())]); break;
      case 2: fen.erase(at, 1); break;
      default: std::swap(fen[at], fen[below(fen.size())]); break;
    }
  }
  return fen;
}

// The reference: the four position fields and the two clocks as one EPD line.
FenResult reference(const std::string& fen) {
  return parse_epd(fen);  // "... w KQkq - 0 1" reads as four fields and FEN-style clocks
}

bool same(const FenResult& a, const FenResult& b) {
  if (bool(a) != bool(b)) return false;
  if (!a) return a.error == b.error;
  return a->position == b->position && a->warnings == b->warnings && a->chess960 == b->chess960;
}

// Both readers apply the same rules to six fields without ';' whose fifth starts with a digit
// (an EPD line reads anything else there as an operation).
bool comparable(const std::string& fen) {
  if (fen.find(';') != std::string::npos || fen.find('"') != std::string::npos) return false;
  std::vector<std::string> fields;
  for (std::size_t i = 0; i < fen.size(); ++i) {
    if (fen[i] == ' ') continue;
    if (i == 0 || fen[i - 1] == ' ') fields.emplace_back();
    fields.back() += fen[i];
  }
  return fields.size() == 6 && fields[4][0] >= '0' && fields[4][0] <= '9';
}

TEST(ClassifyFenFast, SeedsAgreeWithTheValidatingPath) {
  for (const std::string& fen : SEEDS) {
    const FenResult fast = parse_fen(fen), slow = reference(fen);
    ASSERT_TRUE(fast) << fen << ": " << fast.error;
    EXPECT_TRUE(same(fast, slow)) << fen;
  }
}

TEST(ClassifyFenFast, MutationsAgreeWithTheValidatingPath) {
  std::mt19937_64 rng(20240611);
  int compared = 0, accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string fen = mutate(SEEDS[std::size_t(rng() % SEEDS.size())], rng);
    if (!comparable(fen)) continue;
    const FenResult fast = parse_fen(fen), slow = reference(fen);
    ++compared;
    accepted += bool(fast);
    ASSERT_TRUE(same(fast, slow)) << "'" << fen << "': fast " << (fast ? "accepts" : fast.error) << ", reference "
                                  << (slow ? "accepts" : slow.error);
  }
  EXPECT_GT(compared, 50000);
  EXPECT_GT(accepted, 5000);
}

}  // namespace
}  // namespace perftkit
