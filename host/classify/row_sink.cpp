#include "classify/row_sink.hpp"

#include <algorithm>
#include <functional>
#include <utility>

#include "perft/cpu_kernels.hpp"

namespace perftkit {

void ImmediateRowSink::position_rows(std::span<ClassifyRow> rows, std::span<const Position> positions,
                                     std::span<const std::uint8_t> repetitions) {
  const CpuKernels& kernels = cpu_kernels();
  constexpr std::size_t AT_ONCE = 32;
  Classification classified[AT_ONCE];
  for (std::size_t first = 0; first < rows.size(); first += AT_ONCE) {
    const std::size_t n = std::min(AT_ONCE, rows.size() - first);
    kernels.classify_batch(positions.data() + first, repetitions.data() + first, n, classified);
    for (std::size_t i = 0; i < n; ++i) {
      rows[first + i].cls = classified[i];
      finished_row(rows[first + i]);
    }
  }
}

bool BatchedRowSink::is_stable(std::string_view text) const {
  const std::less_equal<const char*> at_or_before;
  return at_or_before(stable_.data(), text.data()) &&
         at_or_before(text.data() + text.size(), stable_.data() + stable_.size());
}

std::string_view BatchedRowSink::keep(std::string_view text) {
  if (text.empty() || is_stable(text)) return text;
  return {texts_.copy(text.data(), text.size()), text.size()};
}

const std::string_view* BatchedRowSink::keep(const std::string_view* views, std::size_t count) {
  std::string_view* const kept = views_.copy(views, count);
  for (std::size_t i = 0; i < count; ++i) kept[i] = keep(kept[i]);
  return kept;
}

ClassifyRow& BatchedRowSink::hold(const ClassifyRow& row) {
  ClassifyRow& held = rows_.emplace_back(row);
  for (std::string_view* text : {&held.fen, &held.id, &held.error, &held.move_uci, &held.move_san}) *text = keep(*text);
  // A game's tag texts are the same in each of its rows: one copy a game, not one a row.
  for (auto [text, last] :
       {std::pair{&held.all_tags_json, &last_all_tags_json_}, {&held.tag_columns, &last_tag_columns_}})
    if (!text->empty() && !is_stable(*text)) {
      if (*text != *last) *last = keep(*text);
      *text = *last;
    }
  // The kept values may live in a worker's scratch: keep copies.
  if (held.kept_count) held.kept_values = keep(held.kept_values, held.kept_count);
  return held;
}

void BatchedRowSink::position_row(ClassifyRow& row, const Position& pos, int repetitions) {
  hold(row);
  classified_.push_back(rows_.size() - 1);
  positions_.push_back(pos);
  // Classification keeps repetitions in 8 bits: classify() saturates the same way.
  repetitions_.push_back(std::uint8_t(std::clamp(repetitions, 0, 255)));
  any_history_ = any_history_ || repetitions != 0;
}

void BatchedRowSink::finished_row(const ClassifyRow& row) { hold(row); }

void BatchedRowSink::flush() {
  results_.resize(positions_.size());
  if (!positions_.empty())
    classifier_.classify(positions_,
                         any_history_ ? std::span<const std::uint8_t>(repetitions_) : std::span<const std::uint8_t>(),
                         results_);
  for (std::size_t i = 0; i < classified_.size(); ++i) rows_[classified_[i]].cls = results_[i];
  for (const ClassifyRow& row : rows_) {
    if (!filter_ || filter_->keeps(row)) formatter_.row(out_, row);
    summary_.add(row);
  }
  rows_.clear();
  texts_.clear();
  last_all_tags_json_ = last_tag_columns_ = {};
  views_.clear();
  classified_.clear();
  positions_.clear();
  repetitions_.clear();
  any_history_ = false;
}

}  // namespace perftkit
