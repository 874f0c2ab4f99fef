// What a FEN reader flags without rejecting: material no game reaches, and checks no last
// move explains (perftkit/check_origin.hpp holds that rule).
#include "notation/fen_warnings.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "perftkit/check_origin.hpp"

namespace perftkit {

// Warnings about checks on the side to move (perftkit/check_origin.hpp): more than two
// checkers, or checks that no last move explains.
std::uint32_t check_warnings(const Position& pos, Square ep) {
  switch (check_origin(pos, ep)) {
    case CheckOrigin::TOO_MANY_CHECKERS: return WARN_TOO_MANY_CHECKERS | WARN_IMPOSSIBLE_CHECK;
    case CheckOrigin::UNEXPLAINED: return WARN_IMPOSSIBLE_CHECK;
    default: return WARN_NONE;
  }
}

// Material no game can reach (without being impossible to count): too many pieces or pawns.
std::uint32_t material_warnings(const Position& pos) {
  std::uint32_t flags = WARN_NONE;
  for (const Color c : {WHITE, BLACK}) {
    if (popcount(pos.by_color[c]) > 16) flags |= WARN_TOO_MANY_PIECES;
    if (popcount(pos.pieces(c, PAWN)) > 8) flags |= WARN_TOO_MANY_PAWNS;
  }
  return flags;
}

std::vector<std::string> warning_names(std::uint32_t flags) {
  constexpr std::array<std::pair<FenWarning, std::string_view>, 4> NAMES{{
      {WARN_TOO_MANY_PIECES, "too-many-pieces"},
      {WARN_TOO_MANY_PAWNS, "too-many-pawns"},
      {WARN_TOO_MANY_CHECKERS, "too-many-checkers"},
      {WARN_IMPOSSIBLE_CHECK, "impossible-check"},
  }};
  std::vector<std::string> names;
  for (const auto& [flag, name] : NAMES)
    if (flags & flag) names.emplace_back(name);
  return names;
}

}  // namespace perftkit
