// Exact perft statistics: the 64-bit leaf counters of work units, summed in 128 bits
// with their frontier multiplicities, and the names the output uses for each counter.
#pragma once

#include <cstdint>
#include <string_view>

#include "perftkit/stats.hpp"
#include "common/uint128.hpp"

namespace perftkit {

struct StatsTotals {
  u128 count[STAT_FIELD_NB] = {};

  u128 operator[](StatField f) const { return count[f]; }

  // Adds multiplicity copies of a work unit's counters (exact while the totals fit 128 bits).
  void add(const LeafStats& unit, u128 multiplicity) {
    for (int f = 0; f < STAT_FIELD_NB; ++f) count[f] += u128(unit.count[f]) * multiplicity;
  }
  StatsTotals& operator+=(const StatsTotals& other) {
    for (int f = 0; f < STAT_FIELD_NB; ++f) count[f] += other.count[f];
    return *this;
  }
  bool operator==(const StatsTotals&) const = default;

  // Dead positions by material, all kinds together.
  u128 dead_positions() const {
    u128 sum = 0;
    for (int f = DEAD_KING_VS_KING; f <= DEAD_SAME_COLOURED_BISHOPS; ++f) sum += count[f];
    return sum;
  }
};

// How a check arises, as The Grand Chess Tree's tables split checks and mates: the moved
// piece alone gives it (direct), one uncovered piece alone (single discovered), the moved
// piece and an uncovered one (direct + discovered), or two uncovered pieces (double
// discovered: en passant can open two lines). For castling the rook is the moved piece, for
// a promotion the promoted piece.
enum class CheckOrigin : std::uint8_t { DIRECT, SINGLE_DISCOVERED, DIRECT_DISCOVERED, DOUBLE_DISCOVERED };
inline constexpr int CHECK_ORIGIN_NB = 4;

// Checks and mates by origin in that table's convention: `checks` leave the mates out,
// `mates` are the checkmates. They add up to the Chess Programming Wiki's columns: checks =
// every check and mate; discovered checks = single discovered with its mates; double checks =
// direct + discovered and double discovered, with their mates; checkmates = every mate.
struct ChecksByOrigin {
  u128 checks[CHECK_ORIGIN_NB] = {};
  u128 mates[CHECK_ORIGIN_NB] = {};
};

ChecksByOrigin checks_by_origin(const StatsTotals& totals);

// The JSON key of an origin ("direct", "single_discovered", ...; "_mates" added for mates).
std::string_view check_origin_name(CheckOrigin origin);

// The JSON key of a counter ("captures", "discovered_checks", ...).
std::string_view stat_json_name(StatField f);

// The row label of a counter in the text table ("captures", "discovered checks", ...).
std::string_view stat_label(StatField f);

}  // namespace perftkit
