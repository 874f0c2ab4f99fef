#include "classify/summary.hpp"

#include <array>
#include <string_view>

#include "classify/format.hpp"
#include "common/json_writer.hpp"

namespace perftkit {
namespace {

constexpr std::array<std::string_view, 6> DEAD_NAMES = {"none",
                                                        "king_vs_king",
                                                        "king_vs_king_bishop",
                                                        "king_vs_king_knight",
                                                        "king_bishop_vs_king_bishop",
                                                        "same_coloured_bishops"};
constexpr std::array<std::string_view, 4> WARNING_NAMES = {"too_many_pieces", "too_many_pawns", "too_many_checkers",
                                                           "impossible_check"};

template <std::size_t N>
std::uint64_t sum(const std::uint64_t (&counts)[N]) {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += c;
  return total;
}

}  // namespace

void ClassifySummary::add(const ClassifyRow& row) {
  ++rows;
  if (row.warnings | row.chess960) [[unlikely]] {
    for (std::size_t bit = 0; bit < std::size(warnings); ++bit) warnings[bit] += (row.warnings >> bit) & 1;
    chess960 += row.chess960;
  }
  if (!row.valid) {
    ++invalid;
    return;
  }
  ++valid;
  const Classification& c = row.cls;
  const Color us = row.side_to_move;
  ++to_move[us];
  in_check += c.in_check;
  fifty_move += c.fifty_move;
  insufficient[WHITE] += c.insufficient_white;
  insufficient[BLACK] += c.insufficient_black;
  const bool ours = us == WHITE ? c.insufficient_white : c.insufficient_black;
  const bool theirs = us == WHITE ? c.insufficient_black : c.insufficient_white;
  insufficient_side_to_move[us] += ours;
  insufficient_side_not_to_move[us] += theirs;
  ++termination[std::size_t(c.termination)];
  // Rarer facts: counted only for rows that have one of them.
  if (c.checkers >= 2 || c.termination != Termination::NONE || c.repetitions >= 3) [[unlikely]] {
    double_check += c.checkers >= 2;
    checkmate += c.checkmate;
    stalemate += c.stalemate;
    dead[std::size_t(c.dead)] += c.dead_by_material();
    dead_by_material += c.dead_by_material();
    seventyfive_move += c.seventyfive_move;
    threefold += c.repetitions >= 3;
    fivefold += c.repetitions >= 5;
    game_over += c.game_over();
    white_wins += c.winner == Winner::WHITE_WINS;
    black_wins += c.winner == Winner::BLACK_WINS;
  }
}

ClassifySummary& ClassifySummary::operator+=(const ClassifySummary& o) {
  const auto add_all = [](auto& mine, const auto& theirs) {
    for (std::size_t i = 0; i < std::size(mine); ++i) mine[i] += theirs[i];
  };
  for (auto [mine, theirs] : {std::pair{&rows, &o.rows},
                              {&valid, &o.valid},
                              {&invalid, &o.invalid},
                              {&in_check, &o.in_check},
                              {&double_check, &o.double_check},
                              {&checkmate, &o.checkmate},
                              {&stalemate, &o.stalemate},
                              {&dead_by_material, &o.dead_by_material},
                              {&fifty_move, &o.fifty_move},
                              {&seventyfive_move, &o.seventyfive_move},
                              {&threefold, &o.threefold},
                              {&fivefold, &o.fivefold},
                              {&game_over, &o.game_over},
                              {&white_wins, &o.white_wins},
                              {&black_wins, &o.black_wins},
                              {&chess960, &o.chess960},
                              {&games, &o.games},
                              {&game_errors, &o.game_errors}})
    *mine += *theirs;
  add_all(to_move, o.to_move);
  add_all(insufficient, o.insufficient);
  add_all(insufficient_side_to_move, o.insufficient_side_to_move);
  add_all(insufficient_side_not_to_move, o.insufficient_side_not_to_move);
  add_all(dead, o.dead);
  add_all(termination, o.termination);
  add_all(warnings, o.warnings);
  return *this;
}

void print_summary_text(std::FILE* out, const ClassifySummary& s, double seconds) {
  const auto line = [&](std::string_view name, std::uint64_t count) {
    std::fprintf(out, "  %-44.*s %llu\n", int(name.size()), name.data(), static_cast<unsigned long long>(count));
  };
  std::fprintf(out, "classify: %llu rows (%llu valid, %llu invalid) in %.3f s, %.4g rows/s\n",
               static_cast<unsigned long long>(s.rows), static_cast<unsigned long long>(s.valid),
               static_cast<unsigned long long>(s.invalid), seconds, seconds > 0 ? double(s.rows) / seconds : 0.0);
  if (s.games) {
    line("games", s.games);
    line("games with an error", s.game_errors);
  }
  line("white to move", s.to_move[WHITE]);
  line("black to move", s.to_move[BLACK]);
  line("in check", s.in_check);
  line("in double check", s.double_check);
  line("checkmate", s.checkmate);
  line("stalemate", s.stalemate);
  line("insufficient material: white", s.insufficient[WHITE]);
  line("insufficient material: black", s.insufficient[BLACK]);
  line("insufficient: side to move", sum(s.insufficient_side_to_move));
  line("insufficient: side to move, white to move", s.insufficient_side_to_move[WHITE]);
  line("insufficient: side to move, black to move", s.insufficient_side_to_move[BLACK]);
  line("insufficient: side not to move", sum(s.insufficient_side_not_to_move));
  line("dead by material", s.dead_by_material);
  for (std::size_t k = 1; k < DEAD_NAMES.size(); ++k) line("dead: " + std::string(DEAD_NAMES[k]), s.dead[k]);
  line("fifty-move clock (>= 100)", s.fifty_move);
  line("seventy-five-move clock (>= 150)", s.seventyfive_move);
  if (s.games) {
    line("threefold repetition (>= 3)", s.threefold);
    line("fivefold repetition (>= 5)", s.fivefold);
  }
  line("game over (by rule)", s.game_over);
  for (std::size_t t = 1; t < std::size(s.termination); ++t)
    line("outcome: " + std::string(termination_name(Termination(t))), s.termination[t]);
  line("white wins", s.white_wins);
  line("black wins", s.black_wins);
  for (std::size_t w = 0; w < WARNING_NAMES.size(); ++w) line("flag: " + std::string(WARNING_NAMES[w]), s.warnings[w]);
  line("flag: chess960", s.chess960);
}

void write_summary_json(std::ostream& out, const ClassifySummary& s, double seconds) {
  JsonWriter json(out);
  const auto by_colour = [&](std::string_view key, const std::uint64_t(&counts)[COLOR_NB]) {
    json.key(key).begin_object().field("total", sum(counts)).field("white_to_move", counts[WHITE]);
    json.field("black_to_move", counts[BLACK]).end_object();
  };
  json.begin_object()
      .field("rows", s.rows)
      .field("valid", s.valid)
      .field("invalid", s.invalid)
      .field("seconds", seconds)
      .field("rows_per_second", seconds > 0 ? double(s.rows) / seconds : 0.0)
      .field("games", s.games)
      .field("game_errors", s.game_errors)
      .field("white_to_move", s.to_move[WHITE])
      .field("black_to_move", s.to_move[BLACK])
      .field("in_check", s.in_check)
      .field("double_check", s.double_check)
      .field("checkmate", s.checkmate)
      .field("stalemate", s.stalemate)
      .field("insufficient_white", s.insufficient[WHITE])
      .field("insufficient_black", s.insufficient[BLACK]);
  by_colour("insufficient_side_to_move", s.insufficient_side_to_move);
  by_colour("insufficient_side_not_to_move", s.insufficient_side_not_to_move);
  json.field("dead_by_material", s.dead_by_material).key("dead").begin_object();
  for (std::size_t k = 1; k < DEAD_NAMES.size(); ++k) json.field(DEAD_NAMES[k], s.dead[k]);
  json.end_object()
      .field("fifty_move", s.fifty_move)
      .field("seventyfive_move", s.seventyfive_move)
      .field("threefold_repetition", s.threefold)
      .field("fivefold_repetition", s.fivefold)
      .field("game_over", s.game_over)
      .key("outcome")
      .begin_object();
  for (std::size_t t = 1; t < std::size(s.termination); ++t)
    json.field(termination_name(Termination(t)), s.termination[t]);
  json.end_object().field("white_wins", s.white_wins).field("black_wins", s.black_wins).key("flags").begin_object();
  for (std::size_t w = 0; w < WARNING_NAMES.size(); ++w) json.field(WARNING_NAMES[w], s.warnings[w]);
  json.field("chess960", s.chess960).end_object().end_object();
  out << '\n';
}

}  // namespace perftkit
