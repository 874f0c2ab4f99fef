// Perft statistics (`perftkit perft --stats`): every published column of the six standard
// positions (../shared/data/perft-statistics.md), an independent leaf classifier compared on
// the shared suites, hand-counted draw and check cases, the driver's exact sums, the CLI.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/cuda_presence.hpp"
#include "notation/fen.hpp"
#include "support/standard_positions.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
#include "support/perft_instances.hpp"
#include "pipeline/stats_totals.hpp"
#include "notation/suite.hpp"
#include "notation/uci.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using namespace test_positions;

bool full_depth_enabled() { return std::getenv("PERFTKIT_FULL_DEPTH") != nullptr; }

StatsTotals run_stats(const Position& root, int depth, unsigned threads = 0, bool merge = true,
                      std::size_t hash_bytes = 0) {
  PerftRequest req;
  req.root = root;
  req.depth = depth;
  req.stats = true;
  req.threads = threads;
  req.merge_transpositions = merge;
  req.backend = Backend::CPU;
  req.hash_bytes = hash_bytes;
  return run_perft(req).stats;
}

// Every counter as "name=value" words, for readable failure messages.
std::string describe(const StatsTotals& t) {
  std::string out;
  for (int f = 0; f < STAT_FIELD_NB; ++f)
    out += std::string(stat_json_name(StatField(f))) + "=" + to_string_u128(t.count[f]) + " ";
  return out;
}

StatsTotals totals_of(const LeafStats& s) {
  StatsTotals t;
  t.add(s, 1);
  return t;
}

// ---- the published tables ------------------------------------------------------------------

// One row of perft-statistics.md; -1 where the table gives no figure. The table's discovered
// and double checks leave out the checks that mate (Kiwipete d5: 2637 double checks, of 2645
// leaves with two checkers, 8 of them mates; see the README): they are compared with
// DISCOVERED_CHECKS - DISCOVERED_CHECKMATES and DOUBLE_CHECKS - DOUBLE_CHECKMATES. Where that
// makes a difference, the mates are given too (perftkit's figures, not the table's).
struct KnownStats {
  const char* name;
  const char* fen;
  int depth;
  long long nodes, captures, en_passant, castles, promotions, checks, discovered, doubles, mates;
  long long discovered_mates = -1, double_mates = -1;
};

constexpr long long NA = -1;

const KnownStats FAST_TABLE[] = {
    {"Start_D0", START_FEN.data(), 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Start_D1", START_FEN.data(), 1, 20, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Start_D2", START_FEN.data(), 2, 400, 0, 0, 0, 0, 0, 0, 0, 0},
    {"Start_D3", START_FEN.data(), 3, 8902, 34, 0, 0, 0, 12, 0, 0, 0},
    {"Start_D4", START_FEN.data(), 4, 197281, 1576, 0, 0, 0, 469, 0, 0, 8},
    {"Start_D5", START_FEN.data(), 5, 4865609, 82719, 258, 0, 0, 27351, 6, 0, 347},
    {"Start_D6", START_FEN.data(), 6, 119060324, 2812008, 5248, 0, 0, 809099, 329, 46, 10828},
    {"Kiwipete_D1", KIWIPETE, 1, 48, 8, 0, 2, 0, 0, 0, 0, 0},
    {"Kiwipete_D2", KIWIPETE, 2, 2039, 351, 1, 91, 0, 3, 0, 0, 0},
    {"Kiwipete_D3", KIWIPETE, 3, 97862, 17102, 45, 3162, 0, 993, 0, 0, 1},
    {"Kiwipete_D4", KIWIPETE, 4, 4085603, 757163, 1929, 128013, 15172, 25523, 42, 6, 43},
    {"Kiwipete_D5", KIWIPETE, 5, 193690690, 35043416, 73365, 4993637, 8392, 3309887, 19883, 2637, 30171, 0, 8},
    {"Position3_D1", POSITION3, 1, 14, 1, 0, 0, 0, 2, 0, 0, 0},
    {"Position3_D2", POSITION3, 2, 191, 14, 0, 0, 0, 10, 0, 0, 0},
    {"Position3_D3", POSITION3, 3, 2812, 209, 2, 0, 0, 267, 3, 0, 0},
    {"Position3_D4", POSITION3, 4, 43238, 3348, 123, 0, 0, 1680, 106, 0, 17},
    {"Position3_D5", POSITION3, 5, 674624, 52051, 1165, 0, 0, 52950, 1292, 3, 0},
    {"Position3_D6", POSITION3, 6, 11030083, 940350, 33325, 0, 7552, 452473, 26067, 0, 2733},
    {"Position3_D7", POSITION3, 7, 178633661, 14519036, 294874, 0, 140024, 12797406, 370630, 3612, 87},
    {"Position4_D1", POSITION4, 1, 6, 0, 0, 0, 0, 0, NA, NA, 0},
    {"Position4_D2", POSITION4, 2, 264, 87, 0, 6, 48, 10, NA, NA, 0},
    {"Position4_D3", POSITION4, 3, 9467, 1021, 4, 0, 120, 38, NA, NA, 22},
    {"Position4_D4", POSITION4, 4, 422333, 131393, 0, 7795, 60032, 15492, NA, NA, 5},
    {"Position4_D5", POSITION4, 5, 15833292, 2046173, 6512, 0, 329464, 200568, NA, NA, 50562},
    {"Position4Mirrored_D3", POSITION4_MIRRORED, 3, 9467, 1021, 4, 0, 120, 38, NA, NA, 22},
    {"Position4Mirrored_D5", POSITION4_MIRRORED, 5, 15833292, 2046173, 6512, 0, 329464, 200568, NA, NA, 50562},
    {"Position4_D6", POSITION4, 6, 706045033, 210369132, 212, 10882006, 81102984, 26973664, NA, NA, 81076},
    {"Position5_D1", POSITION5, 1, 44, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position5_D2", POSITION5, 2, 1486, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position5_D3", POSITION5, 3, 62379, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position5_D4", POSITION5, 4, 2103487, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position5_D5", POSITION5, 5, 89941194, 12320378, 140, 1240828, 6655216, 3078299, NA, NA, NA},
    {"Position6_D0", POSITION6, 0, 1, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position6_D1", POSITION6, 1, 46, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position6_D2", POSITION6, 2, 2079, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position6_D3", POSITION6, 3, 89890, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position6_D4", POSITION6, 4, 3894594, NA, NA, NA, NA, NA, NA, NA, NA},
    {"Position6_D5", POSITION6, 5, 164075551, 19528068, 122, 0, 0, 2998608, NA, NA, NA},
};

// Minutes on two cores: run by `ctest -L slow` (PERFTKIT_FULL_DEPTH=1).
const KnownStats FULL_DEPTH_TABLE[] = {
    {"Start_D7", START_FEN.data(), 7, 3195901860, 108329926, 319617, 883453, 0, 33103848, 18026, 1628, 435767},
    {"Start_D8", START_FEN.data(), 8, 84998978956, 3523740106, 7187977, 23605205, 0, 968981593, 847039, 147215, 9852036,
     4, 0},
    {"Kiwipete_D6", KIWIPETE, 6, 8031647685, 1558445089, 3577504, 184513607, 56627920, 92238050, 568417, 54948, 360003,
     0, 66},
    {"Position3_D8", POSITION3, 8, 3009794393, 267586558, 8009239, 0, 6578076, 135626805, 7181487, 1630, 450410},
    {"Position4Mirrored_D6", POSITION4_MIRRORED, 6, 706045033, 210369132, 212, 10882006, 81102984, 26973664, NA, NA,
     81076},
};

void expect_known(const KnownStats& k, const StatsTotals& t) {
  const std::pair<const char*, long long> columns[] = {
      {"nodes", k.nodes},
      {"captures", k.captures},
      {"e.p.", k.en_passant},
      {"castles", k.castles},
      {"promotions", k.promotions},
      {"checks", k.checks},
      {"checkmates", k.mates},
      {"discovered checks (not mate)", k.discovered},
      {"double checks (not mate)", k.doubles},
      {"discovered checkmates", k.discovered_mates},
      {"double checkmates", k.double_mates},
  };
  const u128 actual[] = {t[NODES],
                         t[CAPTURES],
                         t[EN_PASSANT_CAPTURES],
                         t[CASTLES],
                         t[PROMOTIONS],
                         t[CHECKS],
                         t[CHECKMATES],
                         t[DISCOVERED_CHECKS] - t[DISCOVERED_CHECKMATES],
                         t[DOUBLE_CHECKS] - t[DOUBLE_CHECKMATES],
                         t[DISCOVERED_CHECKMATES],
                         t[DOUBLE_CHECKMATES]};
  for (std::size_t i = 0; i < std::size(columns); ++i) {
    if (columns[i].second == NA) continue;
    EXPECT_EQ(to_string_u128(actual[i]), std::to_string(columns[i].second)) << columns[i].first << " of " << k.name;
  }
}

class StatsPublished : public ::testing::TestWithParam<KnownStats> {};

TEST_P(StatsPublished, MatchesEveryColumn) {
  const KnownStats& k = GetParam();
  expect_known(k, run_stats(position_from_fen(k.fen), k.depth));
}

INSTANTIATE_TEST_SUITE_P(Stats, StatsPublished, ::testing::ValuesIn(FAST_TABLE),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// The same rows through a statistics table of 4 MB (perft --stats's road by default).
class StatsPublishedHashed : public ::testing::TestWithParam<KnownStats> {};

TEST_P(StatsPublishedHashed, MatchesEveryColumn) {
  const KnownStats& k = GetParam();
  expect_known(k, run_stats(position_from_fen(k.fen), k.depth, 0, true, std::size_t(4) << 20));
}

INSTANTIATE_TEST_SUITE_P(Stats, StatsPublishedHashed, ::testing::ValuesIn(FAST_TABLE),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

class StatsPublishedDeep : public ::testing::TestWithParam<KnownStats> {};

TEST_P(StatsPublishedDeep, FullDepth) {
  if (!full_depth_enabled()) GTEST_SKIP() << "set PERFTKIT_FULL_DEPTH=1 to run the deep statistics";
  const KnownStats& k = GetParam();
  expect_known(k, run_stats(position_from_fen(k.fen), k.depth, 0, true, std::size_t(512) << 20));
}

INSTANTIATE_TEST_SUITE_P(Stats, StatsPublishedDeep, ::testing::ValuesIn(FULL_DEPTH_TABLE),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// ---- checks and mates by origin ------------------------------------------------------------------

// The Grand Chess Tree's split (../shared/data/perft-statistics.md): checks without mates that
// are direct, single discovered, direct+discovered and double discovered, then the mates so.
struct OriginRow {
  const char* name;
  const char* fen;
  int depth;
  long long checks[CHECK_ORIGIN_NB], mates[CHECK_ORIGIN_NB];
};

const OriginRow ORIGIN_ROWS[] = {
    {"Start_D3", START_FEN.data(), 3, {12, 0, 0, 0}, {0, 0, 0, 0}},
    {"Start_D4", START_FEN.data(), 4, {461, 0, 0, 0}, {8, 0, 0, 0}},
    {"Start_D5", START_FEN.data(), 5, {26998, 6, 0, 0}, {347, 0, 0, 0}},
    {"Start_D6", START_FEN.data(), 6, {797896, 329, 46, 0}, {10828, 0, 0, 0}},
    {"Start_D7", START_FEN.data(), 7, {32648427, 18026, 1628, 0}, {435767, 0, 0, 0}},
    {"Kiwipete_D2", KIWIPETE, 2, {3, 0, 0, 0}, {0, 0, 0, 0}},
    {"Kiwipete_D3", KIWIPETE, 3, {992, 0, 0, 0}, {1, 0, 0, 0}},
    {"Kiwipete_D4", KIWIPETE, 4, {25432, 42, 6, 0}, {43, 0, 0, 0}},
    {"Kiwipete_D5", KIWIPETE, 5, {3257196, 19883, 2637, 0}, {30163, 0, 8, 0}},
};

class StatsByOrigin : public ::testing::TestWithParam<OriginRow> {};

// perftkit's split, through the statistics table, equals the table's.
TEST_P(StatsByOrigin, MatchesTheGrandChessTree) {
  const OriginRow& row = GetParam();
  const ChecksByOrigin split =
      checks_by_origin(run_stats(position_from_fen(row.fen), row.depth, 0, true, std::size_t(64) << 20));
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o) {
    EXPECT_EQ(to_string_u128(split.checks[o]), std::to_string(row.checks[o]))
        << check_origin_name(CheckOrigin(o)) << " checks of " << row.name;
    EXPECT_EQ(to_string_u128(split.mates[o]), std::to_string(row.mates[o]))
        << check_origin_name(CheckOrigin(o)) << " mates of " << row.name;
  }
}

// The two published sources agree through the README's mapping: the Wiki's checks are all
// eight columns, its discovered checks the single discovered ones, its double checks
// direct+discovered and double discovered, its mates the four mate columns (the Wiki's
// discovered and double checks leaving their mates out, as expect_known reads them).
TEST_P(StatsByOrigin, AddsUpToTheWikiColumns) {
  const OriginRow& row = GetParam();
  const KnownStats* wiki = nullptr;
  for (const KnownStats& k : FAST_TABLE)
    if (std::string(k.name) == row.name) wiki = &k;
  for (const KnownStats& k : FULL_DEPTH_TABLE)
    if (std::string(k.name) == row.name) wiki = &k;
  ASSERT_NE(wiki, nullptr) << row.name;
  long long checks = 0, mates = 0;
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o) checks += row.checks[o] + row.mates[o], mates += row.mates[o];
  EXPECT_EQ(checks, wiki->checks) << row.name;
  EXPECT_EQ(mates, wiki->mates) << row.name;
  EXPECT_EQ(row.checks[int(CheckOrigin::SINGLE_DISCOVERED)], wiki->discovered) << row.name;
  EXPECT_EQ(row.checks[int(CheckOrigin::DIRECT_DISCOVERED)] + row.checks[int(CheckOrigin::DOUBLE_DISCOVERED)],
            wiki->doubles)
      << row.name;
}

INSTANTIATE_TEST_SUITE_P(Stats, StatsByOrigin, ::testing::ValuesIn(ORIGIN_ROWS),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// ---- an independent leaf classifier -----------------------------------------------------------

// The pieces of colour `by` attacking square s, found piece by piece (not through attackers()).
Bitboard reference_checkers(const Position& pos, Color by, Square s) {
  const Bitboard occ = pos.occupied();
  Bitboard pieces = pos.by_color[by], found = 0;
  while (pieces) {
    const Square from = pop_lsb(pieces);
    Bitboard reach = 0;
    switch (pos.piece_type_on(from)) {
      case PAWN: reach = pawn_attacks(by, from); break;
      case KNIGHT: reach = knight_attacks(from); break;
      case BISHOP: reach = bishop_attacks(from, occ); break;
      case ROOK: reach = rook_attacks(from, occ); break;
      case QUEEN: reach = queen_attacks(from, occ); break;
      default: reach = king_attacks(from); break;
    }
    if (reach & square_bb(s)) found |= square_bb(from);
  }
  return found;
}

// Dead material by counting pieces (the FIDE cases, written out independently).
StatField reference_dead_kind(const Position& pos) {
  const Bitboard men = pos.occupied() & ~pos.kings;
  if (men & (pos.pawns | pos.orthogonal)) return STAT_FIELD_NB;
  const int knights = popcount(pos.knights), bishops = popcount(pos.bishops());
  if (knights + bishops == 0) return DEAD_KING_VS_KING;
  if (knights == 1 && bishops == 0) return DEAD_KING_VS_KING_KNIGHT;
  if (knights > 0) return STAT_FIELD_NB;
  if (bishops == 1) return DEAD_KING_VS_KING_BISHOP;
  const Bitboard light = 0x55AA55AA55AA55AAULL;
  const bool one_colour = !(pos.bishops() & light) || !(pos.bishops() & ~light);
  if (!one_colour) return STAT_FIELD_NB;
  const bool one_each = bishops == 2 && popcount(pos.bishops() & pos.by_color[WHITE]) == 1;
  return one_each ? DEAD_KING_BISHOP_VS_KING_BISHOP : DEAD_SAME_COLOURED_BISHOPS;
}

// Counts the move m of parent into child, from the move's encoding and the two boards.
void reference_leaf(const Position& parent, Move m, const Position& child, LeafStats& s) {
  const Color us = parent.side_to_move;
  ++s[NODES];
  const bool capture = m.type() == EN_PASSANT || (m.type() != CASTLING && (parent.by_color[~us] & square_bb(m.to())));
  s[CAPTURES] += capture;
  s[EN_PASSANT_CAPTURES] += m.type() == EN_PASSANT;
  s[CASTLES] += m.type() == CASTLING;
  s[PROMOTIONS] += m.type() == PROMOTION;
  // The moved piece stands on the target, except in castling, where the rook is the mover.
  const Square moved_to = m.type() == CASTLING ? relative_square(us, m.to() > m.from() ? SQ_F1 : SQ_D1) : m.to();
  const Bitboard checkers = reference_checkers(child, us, child.king_square(~us));
  const bool no_moves = count_moves(child) == 0;
  if (checkers) {
    ++s[CHECKS];
    s[DOUBLE_CHECKS] += popcount(checkers) >= 2;
    s[DISCOVERED_CHECKS] += popcount(checkers) == 1 && !(checkers & square_bb(moved_to));
    s[CHECKMATES] += no_moves;
    s[DOUBLE_CHECKMATES] += popcount(checkers) >= 2 && no_moves;
    s[DISCOVERED_CHECKMATES] += popcount(checkers) == 1 && !(checkers & square_bb(moved_to)) && no_moves;
    s[DISCOVERED_DOUBLE_CHECKS] += popcount(checkers) >= 2 && !(checkers & square_bb(moved_to));
    s[DISCOVERED_DOUBLE_CHECKMATES] += popcount(checkers) >= 2 && !(checkers & square_bb(moved_to)) && no_moves;
  } else {
    s[STALEMATES] += no_moves;
  }
  const StatField dead = reference_dead_kind(child);
  if (dead != STAT_FIELD_NB) ++s[dead];
  s[CLOCK_100] += child.halfmove_clock >= 100;
  s[CLOCK_150] += child.halfmove_clock >= 150;
}

void reference_stats(const Position& pos, int depth, LeafStats& s) {
  if (depth == 0) {
    ++s[NODES];
    return;
  }
  for_each_legal_move(pos, [&](const Position& child, Move m) {
    if (depth == 1) reference_leaf(pos, m, child, s);
    else reference_stats(child, depth - 1, s);
  });
}

// The fast statistics (shortcuts on), the plain ones (every leaf played) and the reference
// agree, and their node count is perft's.
void expect_consistent(const Position& pos, int depth, const std::string& what) {
  LeafStats fast{}, plain{}, reference{};
  perft_stats(pos, depth, fast);
  perft_stats(pos, depth, plain, false);
  reference_stats(pos, depth, reference);
  EXPECT_EQ(describe(totals_of(fast)), describe(totals_of(reference))) << what << " depth " << depth;
  EXPECT_EQ(describe(totals_of(plain)), describe(totals_of(reference))) << what << " depth " << depth;
  EXPECT_EQ(fast[NODES], perft(pos, depth)) << what << " depth " << depth;
  EXPECT_GE(fast[CHECKS], fast[DISCOVERED_CHECKS] + fast[DOUBLE_CHECKS]) << what;
  EXPECT_GE(fast[CHECKS], fast[CHECKMATES]) << what;
  EXPECT_GE(fast[CHECKMATES], fast[DISCOVERED_CHECKMATES] + fast[DOUBLE_CHECKMATES]) << what;
}

// One en-passant capture uncovering two lines (the rook through d5, the bishop through c5),
// neither check from the capturing pawn: a double discovered check.
TEST(StatsByOriginCases, EnPassantUncoveringTwoLinesIsDoubleDiscovered) {
  const Position pos = position_from_fen("3R4/B7/8/2pP4/3k4/8/8/7K w - c6 0 1");
  LeafStats s{}, reference{};
  perft_stats(pos, 1, s);
  reference_stats(pos, 1, reference);
  EXPECT_EQ(describe(totals_of(s)), describe(totals_of(reference)));
  EXPECT_EQ(s[EN_PASSANT_CAPTURES], 1u);
  EXPECT_EQ(s[DISCOVERED_DOUBLE_CHECKS], 1u);
  EXPECT_EQ(s[DOUBLE_CHECKS], 1u);
  const ChecksByOrigin split = checks_by_origin(totals_of(s));
  EXPECT_EQ(split.checks[int(CheckOrigin::DOUBLE_DISCOVERED)] + split.mates[int(CheckOrigin::DOUBLE_DISCOVERED)], 1u);
  EXPECT_EQ(split.checks[int(CheckOrigin::DIRECT_DISCOVERED)] + split.mates[int(CheckOrigin::DIRECT_DISCOVERED)], 0u);
}

TEST(StatsReference, StandardPositionsAtSmallDepths) {
  for (const char* fen : {START_FEN.data(), KIWIPETE, POSITION3, POSITION4, POSITION4_MIRRORED, POSITION5, POSITION6})
    for (int depth = 0; depth <= 3; ++depth) expect_consistent(position_from_fen(fen), depth, fen);
}

// The last ply with its leaves listed and played after the generator (the device's form)
// and played at once (the host's), counted in Counters (64-bit, 32-bit or packed 16-bit):
// every counter equal, with shortcuts on and off.
template <typename Counters = LeafStats>
LeafStats last_ply_of(const Position& pos, bool listed, bool shortcuts) {
  Counters s{};
  if (pos.side_to_move == WHITE) {
    if (listed) last_ply_stats<WHITE, true>(pos, s, shortcuts);
    else last_ply_stats<WHITE, false>(pos, s, shortcuts);
  } else {
    if (listed) last_ply_stats<BLACK, true>(pos, s, shortcuts);
    else last_ply_stats<BLACK, false>(pos, s, shortcuts);
  }
  LeafStats wide{};
  wide += s;
  return wide;
}

TEST(StatsReference, ListedLeavesCountAsLeavesPlayedAtOnce) {
  std::size_t compared = 0;
  for (const char* fen :
       {START_FEN.data(), KIWIPETE, POSITION3, POSITION4, POSITION4_MIRRORED, POSITION5, POSITION6, MANY_MOVES}) {
    const Position root = position_from_fen(fen);
    std::vector<Position> positions{root};
    for_each_legal_move(root, [&](const Position& child, Move) { positions.push_back(child); });
    for (const Position& pos : positions)
      for (const bool shortcuts : {true, false}) {
        const LeafStats listed = last_ply_of(pos, true, shortcuts), at_once = last_ply_of(pos, false, shortcuts);
        EXPECT_EQ(describe(totals_of(listed)), describe(totals_of(at_once))) << fen;
        for (const bool listing : {true, false}) {
          EXPECT_EQ(describe(totals_of(last_ply_of<ShallowStats>(pos, listing, shortcuts))),
                    describe(totals_of(at_once)))
              << fen;
          EXPECT_EQ(describe(totals_of(last_ply_of<PlyStats>(pos, listing, shortcuts))), describe(totals_of(at_once)))
              << fen;
        }
        ++compared;
      }
  }
  EXPECT_GT(compared, 400u);
}

// 263 moves, each a leaf to classify with shortcuts off: the list of leaves fills twice.
TEST(StatsReference, MoreLeavesThanOneMoveListHolds) {
  for (int depth = 1; depth <= 2; ++depth) expect_consistent(position_from_fen(MANY_MOVES), depth, "MANY_MOVES");
  const LeafStats listed = last_ply_of(position_from_fen(MANY_MOVES), true, false);
  EXPECT_EQ(listed[NODES], 263u);
  LeafStats reference{};
  reference_stats(position_from_fen(MANY_MOVES), 1, reference);
  EXPECT_EQ(describe(totals_of(listed)), describe(totals_of(reference)));
  // The device's packed counters over two windows, with shortcuts (the filter built again
  // for the second window) and without.
  for (const bool shortcuts : {true, false}) {
    const LeafStats packed = last_ply_of<PlyStats>(position_from_fen(MANY_MOVES), true, shortcuts);
    EXPECT_EQ(describe(totals_of(packed)), describe(totals_of(reference))) << shortcuts;
  }
}

// Packed counters: each of the 21 fields in its own half of a word, up to 65,535, and a
// carry never reaches the neighbour below that.
TEST(StatsReference, PackedPlyCountersKeepEveryFieldApart) {
  PlyStats ply{};
  for (int f = 0; f < STAT_FIELD_NB; ++f) ply[StatField(f)] += std::uint32_t(1000 * f + 7);
  ++ply[CLOCK_150];
  ply[CHECKS] += 65535u - (1000u * CHECKS + 7u);
  for (int f = 0; f < STAT_FIELD_NB; ++f) {
    const std::uint32_t expected = f == CHECKS ? 65535u : f == CLOCK_150 ? 1000u * f + 8u : 1000u * f + 7u;
    EXPECT_EQ(static_cast<const PlyStats&>(ply)[StatField(f)], expected) << f;
  }
}

std::filesystem::path shared_perft_file(const char* name) {
  return std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft" / name;
}

// Every `stride`-th case of a shared suite, at the deepest listed depth with at most
// `max_nodes` leaves (at least depth 1).
void check_suite(const char* name, std::size_t stride, long long max_nodes) {
  const std::filesystem::path path = shared_perft_file(name);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared perft data at " << path;
  const SuiteFileResult suite = read_suite(path, name);
  ASSERT_TRUE(suite) << suite.error;
  ASSERT_FALSE(suite->cases.empty());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < suite->cases.size(); i += stride) {
    const SuiteCase& c = suite->cases[i];
    const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
    ASSERT_TRUE(parsed) << c.source << ": " << parsed.error;
    int depth = 1;
    for (const ExpectedCount& e : c.expected)
      if (e.nodes <= u128(max_nodes) && e.depth > depth) depth = e.depth;
    expect_consistent(parsed->position, depth, c.source + " " + c.fen);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST(StatsReference, StandardSuite) { check_suite("standard.epd", 1, 200000); }
TEST(StatsReference, SedlakTrapSuite) { check_suite("perft.epd", 1, 200000); }
TEST(StatsReference, TrickySuite) { check_suite("tricky.perft", 1, 500000); }
TEST(StatsReference, DoubleCheckSuite) { check_suite("perft-ferdy-double-checks.epd", 1, 5000); }
TEST(StatsReference, Chess960Suite) { check_suite("fischer.epd", 8, 20000); }
TEST(StatsReference, RandomSuite) { check_suite("random.perft", 7, 20000); }

// ---- the disputed Kiwipete figure ------------------------------------------------------------

// Kiwipete d5 has 2645 leaves with two checkers; 8 of them are checkmates (Nd7xf6 with the
// bishop on b5 uncovered, from four distinct parents) and 6 are promotions (f7xe8/g8 = Q or R,
// uncovering the queen on f3), which do not mate. The table's 2637 is 2645 less the mates.
TEST(StatsKiwipete, DoubleCheckMateIsBothDoubleCheckAndMate) {
  const Position pos = position_from_fen("3rkb1r/p1pNqp2/bn2pnp1/1B1P4/1p2P3/2N2Q1p/PPPB1PPP/R3K2R w KQk - 1 3");
  const LeafStats s = move_stats(pos, *parse_uci_move(pos, "d7f6"));
  EXPECT_EQ(s[CAPTURES], 1u);
  EXPECT_EQ(s[CHECKS], 1u);
  EXPECT_EQ(s[DOUBLE_CHECKS], 1u);
  EXPECT_EQ(s[DISCOVERED_CHECKS], 0u);
  EXPECT_EQ(s[CHECKMATES], 1u);
  EXPECT_EQ(s[DOUBLE_CHECKMATES], 1u);
}

TEST(StatsKiwipete, PromotionUncoveringTheQueenIsADoubleCheckAsQueenOrRook) {
  const Position pos = position_from_fen("r3nk1r/p1ppqPb1/bn4p1/4N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQ - 1 3");
  for (const char* uci : {"f7e8q", "f7e8r", "f7e8b", "f7e8n"}) {
    const LeafStats s = move_stats(pos, *parse_uci_move(pos, uci));
    const bool checks_directly = uci[4] == 'q' || uci[4] == 'r';
    EXPECT_EQ(s[PROMOTIONS], 1u) << uci;
    EXPECT_EQ(s[CAPTURES], 1u) << uci;
    EXPECT_EQ(s[CHECKS], 1u) << uci;
    EXPECT_EQ(s[DOUBLE_CHECKS], checks_directly ? 1u : 0u) << uci;
    EXPECT_EQ(s[DISCOVERED_CHECKS], checks_directly ? 0u : 1u) << uci;
    EXPECT_EQ(s[CHECKMATES], 0u) << uci;
  }
}

// Splits the double checks of a tree by whether they mate and whether a promotion gave them.
struct DoubleCheckSplit {
  std::uint64_t total = 0, mates = 0, promotions = 0;
};

void split_double_checks(const Position& pos, int depth, DoubleCheckSplit& split) {
  for_each_legal_move(pos, [&](const Position& child, Move m) {
    if (depth > 1) return split_double_checks(child, depth - 1, split);
    const Color them = child.side_to_move;
    const Bitboard checkers = them == WHITE ? attackers<BLACK>(child, child.king_square(WHITE), child.occupied())
                                            : attackers<WHITE>(child, child.king_square(BLACK), child.occupied());
    if (!more_than_one(checkers)) return;
    ++split.total;
    split.mates += count_moves(child) == 0;
    split.promotions += m.type() == PROMOTION;
  });
}

// The same over the subtrees of the root moves, shared out between two threads.
DoubleCheckSplit split_double_checks_parallel(const Position& root, int depth) {
  std::vector<Position> children;
  for_each_legal_move(root, [&](const Position& child, Move) { children.push_back(child); });
  DoubleCheckSplit halves[2];
  auto half = [&](std::size_t first) {
    for (std::size_t i = first; i < children.size(); i += 2) split_double_checks(children[i], depth - 1, halves[first]);
  };
  std::thread other(half, 1);
  half(0);
  other.join();
  return {halves[0].total + halves[1].total, halves[0].mates + halves[1].mates,
          halves[0].promotions + halves[1].promotions};
}

TEST(StatsKiwipete, DoubleChecksIncludeMates) {
  const DoubleCheckSplit split = split_double_checks_parallel(position_from_fen(KIWIPETE), 5);
  EXPECT_EQ(split.total, 2645u);
  EXPECT_EQ(split.mates, 8u);
  EXPECT_EQ(split.promotions, 6u);
  EXPECT_EQ(split.total - split.mates, 2637u);  // the figure in the table
  const StatsTotals t = run_stats(position_from_fen(KIWIPETE), 5);
  EXPECT_EQ(t[DOUBLE_CHECKS], u128(2645));
  EXPECT_EQ(t[DOUBLE_CHECKMATES], u128(8));
  EXPECT_EQ(t[DISCOVERED_CHECKS], u128(19883));
  EXPECT_EQ(t[DISCOVERED_CHECKMATES], u128(0));
}

// ---- hand-counted checks -----------------------------------------------------------------------

LeafStats depth1(const char* fen) {
  LeafStats s{};
  perft_stats(position_from_fen(fen), 1, s);
  expect_consistent(position_from_fen(fen), 1, fen);
  return s;
}

// Only the listed counters are non-zero.
void expect_only(const LeafStats& s, std::initializer_list<std::pair<StatField, std::uint64_t>> expected) {
  LeafStats want{};
  for (const auto& [field, value] : expected) want[field] = value;
  EXPECT_EQ(describe(totals_of(s)), describe(totals_of(want)));
}

// 15 moves: 5 king moves, O-O, 9 rook moves. Rh8+, Rf1+ and O-O+ give check; after castling
// the rook is the piece that moved, so its check is direct.
TEST(StatsChecks, CastlingWithCheckIsADirectCheck) {
  expect_only(depth1("5k2/8/8/8/8/8/8/4K2R w K - 0 1"), {{NODES, 15}, {CASTLES, 1}, {CHECKS, 3}});
}

// e8=Q+ and e8=R+ check from the promotion square: direct checks by the promoted piece.
// e8=B and e8=N leave king and minor piece against king: dead positions.
TEST(StatsChecks, PromotionWithCheckIsADirectCheck) {
  expect_only(depth1("k7/4P3/8/8/8/8/8/4K3 w - - 0 1"),
              {{NODES, 9}, {PROMOTIONS, 4}, {CHECKS, 2}, {DEAD_KING_VS_KING_BISHOP, 1}, {DEAD_KING_VS_KING_KNIGHT, 1}});
}

// exd6 e.p. empties d5 and e5 and opens the rook's rank to the king on h5: a discovered
// check. 17 moves: 10 rook (Rxd5 among them), e6, exd6, 5 king.
TEST(StatsChecks, EnPassantUncoveringACheckIsDiscovered) {
  expect_only(depth1("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1"),
              {{NODES, 17}, {CAPTURES, 2}, {EN_PASSANT_CAPTURES, 1}, {CHECKS, 1}, {DISCOVERED_CHECKS, 1}});
}

// ---- hand-counted draw statistics -----------------------------------------------------------------

// Kf6-g6 guards h7 and g7: Black (Kh8, pawn h7 in front) has no move. The other six king
// moves leave Kxh7 or Kg7. 7 moves, 1 stalemate.
TEST(StatsDraws, StalemateInOne) {
  expect_only(depth1("7k/7P/5K2/8/8/8/8/8 w - - 0 1"), {{NODES, 7}, {STALEMATES, 1}});
}

// Bxb2 leaves king and bishop against king. 11 moves: 6 bishop, 5 king.
TEST(StatsDraws, KingAndBishopVersusKingAfterACapture) {
  expect_only(depth1("4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1"), {{NODES, 11}, {CAPTURES, 1}, {DEAD_KING_VS_KING_BISHOP, 1}});
}

// Kxe2 leaves the bare kings. 5 moves: Kc1, Kc2, Ke1, Ke3, Kxe2 (c3, d3 touch the king on c4,
// d1 is attacked by the pawn).
TEST(StatsDraws, KingVersusKingAfterACapture) {
  expect_only(depth1("8/8/8/8/2k5/8/3Kp3/8 w - - 0 1"), {{NODES, 5}, {CAPTURES, 1}, {DEAD_KING_VS_KING, 1}});
}

// Kxe2 and Nxe2 both leave king and knight against king. 8 moves: 5 king, 3 knight.
TEST(StatsDraws, KingAndKnightVersusKingAfterEitherCapture) {
  expect_only(depth1("8/8/8/8/2k5/8/3Kp3/6N1 w - - 0 1"), {{NODES, 8}, {CAPTURES, 2}, {DEAD_KING_VS_KING_KNIGHT, 2}});
}

// Bc1xb2 leaves a dark-squared bishop each (b2 and f8).
TEST(StatsDraws, BishopsOfOneColourOneEach) {
  expect_only(depth1("4kb2/8/8/8/8/8/1p6/2B1K3 w - - 0 1"),
              {{NODES, 11}, {CAPTURES, 1}, {DEAD_KING_BISHOP_VS_KING_BISHOP, 1}});
}

// Bc1xb2 leaves two dark-squared bishops (b2, g3) against a bare king. 19 moves: 6 + 8 + 5.
TEST(StatsDraws, BishopsOfOneColourGeneralCase) {
  expect_only(depth1("4k3/8/8/8/8/6B1/1p6/2B1K3 w - - 0 1"),
              {{NODES, 19}, {CAPTURES, 1}, {DEAD_SAME_COLOURED_BISHOPS, 1}});
}

// Clock 99: the four king moves reach 100, the two pawn moves reset it.
TEST(StatsDraws, HalfmoveClockReaches100) {
  expect_only(depth1("4k3/8/8/8/8/8/4P3/4K3 w - - 99 60"), {{NODES, 6}, {CLOCK_100, 4}});
}

TEST(StatsDraws, HalfmoveClockReaches150) {
  expect_only(depth1("4k3/8/8/8/8/8/4P3/4K3 w - - 149 90"), {{NODES, 6}, {CLOCK_100, 4}, {CLOCK_150, 4}});
}

// Two plies from clock 98: only lines of two king moves reach 100; the reference agrees.
TEST(StatsDraws, ClockAndMaterialAtDepth) {
  for (const char* fen :
       {"4k3/8/8/8/8/8/4P3/4K3 w - - 98 60", "4k3/8/8/8/8/6B1/1p6/2B1K3 w - - 0 1", "8/8/8/8/2k5/8/3Kp3/6N1 w - - 0 1",
        "7k/7P/5K2/8/8/8/8/8 w - - 0 1", "4kb2/8/8/8/8/8/1p6/2B1K3 w - - 0 1"})
    for (int depth = 2; depth <= 4; ++depth) expect_consistent(position_from_fen(fen), depth, fen);
}

// ---- the driver: exact sums whatever the split ---------------------------------------------------

TEST(StatsDriver, NodesEqualPlainPerftAndDivideSumsToTheTotal) {
  PerftRequest req;
  req.root = position_from_fen(KIWIPETE);
  req.depth = 3;
  req.divide = true;
  req.stats = true;
  req.backend = Backend::CPU;
  const PerftReport report = run_perft(req);
  ASSERT_EQ(report.divide.size(), 48u);
  StatsTotals sum;
  for (const DivideEntry& e : report.divide) {
    sum += e.stats;
    EXPECT_EQ(e.nodes, e.stats[NODES]) << e.uci;
  }
  EXPECT_EQ(sum, report.stats);
  EXPECT_EQ(report.nodes, u128(97862));
  EXPECT_EQ(report.stats[NODES], u128(97862));
}

TEST(StatsDriver, DepthOneDivideClassifiesEachRootMove) {
  PerftRequest req;
  req.root = position_from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
  req.depth = 1;
  req.divide = true;
  req.stats = true;
  req.backend = Backend::CPU;
  const PerftReport report = run_perft(req);
  ASSERT_EQ(report.divide.size(), 15u);
  for (const DivideEntry& e : report.divide) {
    EXPECT_EQ(e.stats[NODES], u128(1)) << e.uci;
    const bool check = e.uci == "h1h8" || e.uci == "h1f1" || e.uci == "e1g1";
    EXPECT_EQ(e.stats[CHECKS], u128(check ? 1 : 0)) << e.uci;
    EXPECT_EQ(e.stats[CASTLES], u128(e.uci == "e1g1" ? 1 : 0)) << e.uci;
  }
  EXPECT_EQ(report.stats[CHECKS], u128(3));
}

TEST(StatsDriver, DepthZeroIsOneNodeAndNoMove) {
  const StatsTotals t = run_stats(position_from_fen(KIWIPETE), 0);
  StatsTotals want;
  want.count[NODES] = 1;
  EXPECT_EQ(t, want) << describe(t);
}

TEST(StatsDriver, ThreadsAndMergingNeverChangeACount) {
  const Position root = position_from_fen(KIWIPETE);
  const StatsTotals reference = run_stats(root, 4, 1, false);
  for (bool merge : {true, false})
    for (unsigned threads : {1u, 2u, 7u})
      EXPECT_EQ(describe(run_stats(root, 4, threads, merge)), describe(reference)) << merge << " " << threads;
}

// Statistics on the CUDA backend run the pipeline's statistics mode (tests/pipeline/test_stats.cpp
// and pipeline/test_cuda.cpp); without a device the request fails instead of counting elsewhere.
TEST(StatsDriver, CudaBackendWithoutDeviceIsRefused) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is present";
  PerftRequest req;
  req.root = position_from_fen(std::string(START_FEN));
  req.depth = 2;
  req.stats = true;
  req.backend = Backend::CUDA;
  EXPECT_THROW(run_perft(req), std::runtime_error);
}

// A unit's 64-bit count times a 64-bit multiplicity is summed without truncation.
TEST(StatsDriver, MultiplicityProductsAreExact) {
  LeafStats unit{};
  unit[CHECKS] = std::numeric_limits<std::uint64_t>::max();
  StatsTotals t;
  t.add(unit, std::numeric_limits<std::uint64_t>::max());
  t.add(unit, 2);
  const u128 max64 = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(t[CHECKS], max64 * max64 + 2 * max64);
  EXPECT_EQ(to_string_u128(t[CHECKS]), "340282366920938463463374607431768211455");  // 2^128 - 1
}

// ---- the command line -----------------------------------------------------------------------

std::string run_stdout(const std::string& args) {
  const std::string command = std::string(perftkit::test_paths::perftkit_binary()) + " " + args + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), int(buffer.size()), pipe)) out += buffer.data();
  pclose(pipe);
  return out;
}

TEST(StatsCli, TableEndsWithNodesSearched) {
  const std::string out = run_stdout("perft --depth 4 --stats --backend cpu");
  EXPECT_NE(out.find("checkmates"), std::string::npos) << out;
  EXPECT_NE(out.find("1576\n"), std::string::npos) << out;
  const std::string last = "Nodes searched: 197281\n";
  ASSERT_GE(out.size(), last.size());
  EXPECT_EQ(out.substr(out.size() - last.size()), last) << out;
}

TEST(StatsCli, DivideTableHasARowPerMoveAndATotal) {
  const std::string out = run_stdout("perft --depth 3 --stats --divide --backend cpu");
  EXPECT_NE(out.find("\ne2e4 "), std::string::npos) << out;
  EXPECT_NE(out.find("\ntotal "), std::string::npos) << out;
  EXPECT_NE(out.find("Nodes searched: 8902\n"), std::string::npos) << out;
}

TEST(StatsCli, JsonHasStatsAndPerMoveStats) {
  const std::string out = run_stdout("perft --depth 3 --stats --divide --json --backend cpu");
  EXPECT_NE(out.find("\"stats\":{\"nodes\":8902,\"captures\":34,\"en_passant\":0,"), std::string::npos) << out;
  EXPECT_NE(out.find("\"checks\":12,"), std::string::npos) << out;
  EXPECT_NE(out.find("\"e2e4\":{\"nodes\":600,"), std::string::npos) << out;
}

}  // namespace
}  // namespace perftkit
