#include "pipeline/stats_totals.hpp"

namespace perftkit {
namespace {

struct StatNames {
  std::string_view json;
  std::string_view label;
};

constexpr StatNames STAT_NAMES[STAT_FIELD_NB] = {
    {"nodes", "nodes"},
    {"captures", "captures"},
    {"en_passant", "en passant"},
    {"castles", "castles"},
    {"promotions", "promotions"},
    {"checks", "checks"},
    {"discovered_checks", "discovered checks"},
    {"double_checks", "double checks"},
    {"checkmates", "checkmates"},
    {"discovered_checkmates", "discovered checkmates"},
    {"double_checkmates", "double checkmates"},
    {"discovered_double_checks", "double checks, both uncovered"},
    {"discovered_double_checkmates", "double checkmates, both uncovered"},
    {"stalemates", "stalemates"},
    {"dead_king_vs_king", "dead: K v K"},
    {"dead_king_vs_king_bishop", "dead: K v KB"},
    {"dead_king_vs_king_knight", "dead: K v KN"},
    {"dead_king_bishop_vs_king_bishop", "dead: KB v KB"},
    {"dead_same_coloured_bishops", "dead: bishops of one colour"},
    {"clock_100", "clock >= 100 (50-move)"},
    {"clock_150", "clock >= 150 (75-move)"},
};

static_assert(STAT_NAMES[STAT_FIELD_NB - 1].json == "clock_150", "a name for every counter, in enum order");

constexpr std::string_view CHECK_ORIGIN_NAMES[CHECK_ORIGIN_NB] = {"direct", "single_discovered", "direct_discovered",
                                                                  "double_discovered"};

}  // namespace

ChecksByOrigin checks_by_origin(const StatsTotals& t) {
  // Every counter below includes its mates; each origin's checks are its checks less its mates.
  const u128 all[CHECK_ORIGIN_NB] = {t[CHECKS] - t[DISCOVERED_CHECKS] - t[DOUBLE_CHECKS], t[DISCOVERED_CHECKS],
                                     t[DOUBLE_CHECKS] - t[DISCOVERED_DOUBLE_CHECKS], t[DISCOVERED_DOUBLE_CHECKS]};
  const u128 mates[CHECK_ORIGIN_NB] = {t[CHECKMATES] - t[DISCOVERED_CHECKMATES] - t[DOUBLE_CHECKMATES],
                                       t[DISCOVERED_CHECKMATES], t[DOUBLE_CHECKMATES] - t[DISCOVERED_DOUBLE_CHECKMATES],
                                       t[DISCOVERED_DOUBLE_CHECKMATES]};
  ChecksByOrigin split;
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o) {
    split.checks[o] = all[o] - mates[o];
    split.mates[o] = mates[o];
  }
  return split;
}

std::string_view check_origin_name(CheckOrigin origin) { return CHECK_ORIGIN_NAMES[int(origin)]; }

std::string_view stat_json_name(StatField f) { return STAT_NAMES[f].json; }
std::string_view stat_label(StatField f) { return STAT_NAMES[f].label; }

}  // namespace perftkit
