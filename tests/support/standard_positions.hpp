// The standard perft positions of the Chess Programming Wiki's perft page, the published
// counts that several backends' tests share, and the FEN reader tests use: it throws on a
// bad FEN, naming it, so that a typo in a test fails loudly.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "notation/fen.hpp"
#include "common/uint128.hpp"

namespace perftkit::test_positions {

inline constexpr const char* KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
inline constexpr const char* POSITION3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
inline constexpr const char* POSITION4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
inline constexpr const char* POSITION4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
inline constexpr const char* POSITION5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
inline constexpr const char* POSITION6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

// An invented position (28 white queens) with 263 legal moves, more than a move or child
// buffer holds (MAX_LEGAL_MOVES). perft 1-3: 263, 1419, 345103, from python-chess 1.11
// (Stockfish 15.1 cannot list more than 256 moves).
inline constexpr const char* MANY_MOVES = "kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";

// A published count: perft(fen, depth) = nodes; name labels a parameterised test.
struct PublishedCount {
  const char* name;
  const char* fen;
  int depth;
  u128 nodes;
};

// Every standard position at a depth a CI run affords on any backend (each under 16M nodes).
inline constexpr PublishedCount CI_DEPTH_COUNTS[] = {
    {"Start_D0", "startpos", 0, 1},           {"Start_D1", "startpos", 1, 20},
    {"Start_D2", "startpos", 2, 400},         {"Start_D3", "startpos", 3, 8902},
    {"Start_D5", "startpos", 5, 4865609},     {"Kiwipete_D4", KIWIPETE, 4, 4085603},
    {"Position3_D6", POSITION3, 6, 11030083}, {"Position4_D5", POSITION4, 5, 15833292},
    {"Position5_D4", POSITION5, 4, 2103487},  {"Position6_D4", POSITION6, 4, 3894594},
};

inline Position position_from_fen(std::string_view fen) {
  const FenResult parsed = parse_fen(fen);
  if (!parsed) throw std::invalid_argument("bad FEN in test: " + std::string(fen) + ": " + parsed.error);
  return parsed->position;
}

}  // namespace perftkit::test_positions
