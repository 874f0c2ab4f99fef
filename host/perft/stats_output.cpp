#include "perft/stats_output.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace perftkit {
namespace {

// Columns of the per-move table: the counters, with the dead-position kinds summed.
struct Column {
  const char* header;
  u128 (*value)(const StatsTotals&);
};

template <StatField F>
u128 field(const StatsTotals& t) {
  return t[F];
}
u128 dead(const StatsTotals& t) { return t.dead_positions(); }

constexpr Column DIVIDE_COLUMNS[] = {
    {"nodes", field<NODES>},
    {"captures", field<CAPTURES>},
    {"e.p.", field<EN_PASSANT_CAPTURES>},
    {"castles", field<CASTLES>},
    {"promotions", field<PROMOTIONS>},
    {"checks", field<CHECKS>},
    {"disc.chk", field<DISCOVERED_CHECKS>},
    {"dbl.chk", field<DOUBLE_CHECKS>},
    {"mates", field<CHECKMATES>},
    {"stalemates", field<STALEMATES>},
    {"dead", dead},
    {"clock100", field<CLOCK_100>},
    {"clock150", field<CLOCK_150>},
};

void pad_left(std::ostream& out, const std::string& text, std::size_t width) {
  out << std::string(width > text.size() ? width - text.size() : 0, ' ') << text;
}

}  // namespace

void print_stats_divide(std::ostream& out, const std::vector<DivideEntry>& divide, const StatsTotals& total) {
  std::size_t move_width = 5;  // "total"
  for (const DivideEntry& e : divide) move_width = std::max(move_width, e.uci.size());
  std::vector<std::size_t> widths;
  for (const Column& c : DIVIDE_COLUMNS)
    widths.push_back(std::max(std::string(c.header).size(), to_string_u128(c.value(total)).size()));

  auto row = [&](const std::string& label, auto cell) {
    out << label << std::string(move_width - label.size(), ' ');
    for (std::size_t i = 0; i < widths.size(); ++i) {
      out << "  ";
      pad_left(out, cell(i), widths[i]);
    }
    out << '\n';
  };
  row("move", [](std::size_t i) { return std::string(DIVIDE_COLUMNS[i].header); });
  for (const DivideEntry& e : divide)
    row(e.uci, [&](std::size_t i) { return to_string_u128(DIVIDE_COLUMNS[i].value(e.stats)); });
  row("total", [&](std::size_t i) { return to_string_u128(DIVIDE_COLUMNS[i].value(total)); });
}

// Text labels of the checks and mates by origin (CheckOrigin order).
constexpr const char* ORIGIN_LABELS[CHECK_ORIGIN_NB] = {"direct", "single discovered", "direct+discovered",
                                                        "double discovered"};

void print_stats_summary(std::ostream& out, const StatsTotals& totals) {
  std::vector<std::pair<std::string, u128>> lines;
  for (int f = 0; f < STAT_FIELD_NB; ++f) lines.emplace_back(stat_label(StatField(f)), totals.count[f]);
  const ChecksByOrigin split = checks_by_origin(totals);
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o)
    lines.emplace_back(std::string("checks, ") + ORIGIN_LABELS[o] + " (no mate)", split.checks[o]);
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o)
    lines.emplace_back(std::string("mates, ") + ORIGIN_LABELS[o], split.mates[o]);
  std::size_t label_width = 0, value_width = 0;
  for (const auto& [label, value] : lines) {
    label_width = std::max(label_width, label.size());
    value_width = std::max(value_width, to_string_u128(value).size());
  }
  for (const auto& [label, value] : lines) {
    out << label << std::string(label_width - label.size(), ' ') << "  ";
    pad_left(out, to_string_u128(value), value_width);
    out << '\n';
  }
  out << '\n';
}

void write_stats_fields(JsonWriter& json, const StatsTotals& totals) {
  json.key("stats");
  write_stats_json(json, totals, CountsAs::NUMBERS);
  json.key("stats_string");
  write_stats_json(json, totals, CountsAs::STRINGS);
}

void write_stats_json(JsonWriter& json, const StatsTotals& totals, CountsAs as) {
  const auto count = [&](u128 value) {
    if (as == CountsAs::NUMBERS) json.value(value);
    else json.value(std::string_view(to_string_u128(value)));
  };
  json.begin_object();
  for (int f = 0; f < STAT_FIELD_NB; ++f) {
    json.key(stat_json_name(StatField(f)));
    count(totals.count[f]);
  }
  const ChecksByOrigin split = checks_by_origin(totals);
  json.key("checks_by_origin");
  json.begin_object();
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o) {
    json.key(check_origin_name(CheckOrigin(o)));
    count(split.checks[o]);
  }
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o) {
    json.key(std::string(check_origin_name(CheckOrigin(o))) + "_mates");
    count(split.mates[o]);
  }
  json.end_object();
  json.end_object();
}

}  // namespace perftkit
