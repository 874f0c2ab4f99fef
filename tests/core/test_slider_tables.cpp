// The slider tables in both layouts, against a plain ray walk written here: the magic-indexed
// layout (the GPU's lookup path, and the host's without BMI2) and the PEXT-indexed one, on
// every square and thousands of occupancies each. A magic number that collides, a wrong
// shift or a wrong offset shows up here before it shows up as a wrong perft count.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>

#include "perftkit/attacks.hpp"

namespace perftkit {
namespace {

constexpr int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The squares a slider on sq reaches: each ray up to and including the first blocker.
Bitboard walk_rays(const int (&steps)[4][2], int sq, Bitboard occupied) {
  Bitboard reached = 0;
  for (const auto& step : steps) {
    int file = sq % 8 + step[0], rank = sq / 8 + step[1];
    while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
      const Bitboard square = Bitboard(1) << (rank * 8 + file);
      reached |= square;
      if (occupied & square) break;
      file += step[0];
      rank += step[1];
    }
  }
  return reached;
}

// Bits of b under mask, packed from bit 0 in mask's order (PEXT without BMI2).
std::uint64_t packed_bits(Bitboard b, Bitboard mask) {
  std::uint64_t packed = 0;
  int at = 0;
  for (Bitboard m = mask; m; m &= m - 1, ++at)
    if (b & (m & -m)) packed |= std::uint64_t(1) << at;
  return packed;
}

Bitboard magic_lookup(const AttackTables& t, const SliderEntry& e, Bitboard occupied) {
  return t.slider[e.offset + (((occupied & e.mask) * e.magic) >> e.shift)];
}

Bitboard pext_lookup(const AttackTables& t, const SliderEntry& e, Bitboard occupied) {
  return t.slider[e.offset + packed_bits(occupied, e.mask)];
}

// Occupancies for one square: sparse, dense and every-other-bit boards.
template <typename Check>
void for_occupancies(std::mt19937_64& rng, Check check) {
  for (int i = 0; i < 3000; ++i) {
    const Bitboard a = rng(), b = rng(), c = rng();
    check(a & b & c);  // about 8 pieces
    check(a & b);      // about 16
    check(a | b);      // about 48
  }
  check(0);
  check(~Bitboard(0));
}

TEST(SliderTables, BothLayoutsMatchARayWalkOnEverySquare) {
  const auto magic = std::make_unique<AttackTables>();
  const auto pext_ordered = std::make_unique<AttackTables>();
  build_attack_tables(*magic, false);
  build_attack_tables(*pext_ordered, true);
  std::mt19937_64 rng(20261202);
  int mismatches = 0;
  for (int sq = 0; sq < 64; ++sq) {
    for_occupancies(rng, [&](Bitboard occupied) {
      const Bitboard rook = walk_rays(ROOK_STEPS, sq, occupied);
      const Bitboard bishop = walk_rays(BISHOP_STEPS, sq, occupied);
      mismatches += magic_lookup(*magic, magic->rook[sq], occupied) != rook;
      mismatches += magic_lookup(*magic, magic->bishop[sq], occupied) != bishop;
      mismatches += pext_lookup(*pext_ordered, pext_ordered->rook[sq], occupied) != rook;
      mismatches += pext_lookup(*pext_ordered, pext_ordered->bishop[sq], occupied) != bishop;
    });
    ASSERT_EQ(mismatches, 0) << "square " << sq;
  }
  // The layout the host uses answers the same through the public lookups.
  for (int sq = 0; sq < 64; ++sq)
    for_occupancies(rng, [&](Bitboard occupied) {
      mismatches += rook_attacks(Square(sq), occupied) != walk_rays(ROOK_STEPS, sq, occupied);
      mismatches += bishop_attacks(Square(sq), occupied) != walk_rays(BISHOP_STEPS, sq, occupied);
    });
  EXPECT_EQ(mismatches, 0);
}

// Every magic gives each subset of its mask a slot of its own or one holding the same
// attacks (a constructive collision), and the PEXT layout holds each subset at its packed
// bits: over all 2^n subsets, never a different answer.
TEST(SliderTables, BothLayoutsAreExactOnEverySubsetOfEveryMask) {
  const auto magic = std::make_unique<AttackTables>();
  const auto pext_ordered = std::make_unique<AttackTables>();
  build_attack_tables(*magic, false);
  build_attack_tables(*pext_ordered, true);
  for (int sq = 0; sq < 64; ++sq) {
    for (const bool rook : {true, false}) {
      const SliderEntry& e = rook ? magic->rook[sq] : magic->bishop[sq];
      const SliderEntry& p = rook ? pext_ordered->rook[sq] : pext_ordered->bishop[sq];
      int wrong = 0;
      // Carry-Rippler: every subset of the mask.
      Bitboard subset = 0;
      do {
        const Bitboard walked = walk_rays(rook ? ROOK_STEPS : BISHOP_STEPS, sq, subset);
        wrong += magic_lookup(*magic, e, subset) != walked;
        wrong += pext_lookup(*pext_ordered, p, subset) != walked;
        subset = (subset - e.mask) & e.mask;
      } while (subset);
      EXPECT_EQ(wrong, 0) << (rook ? "rook" : "bishop") << " on square " << sq;
    }
  }
}

}  // namespace
}  // namespace perftkit
