#include "classify/row_sink.hpp"

#include <algorithm>
#include <functional>
#include <utility>

namespace perftkit {

bool BatchedRowSink::is_stable(std::string_view text) const {
  const std::less_equal<const char*> at_or_before;
  return at_or_before(stable_.data(), text.data()) &&
         at_or_before(text.data() + text.size(), stable_.data() + stable_.size());
}

ClassifyRow& BatchedRowSink::hold(const ClassifyRow& row) {
  rows_.push_back(row);
  ClassifyRow& held = rows_.back();
  for (std::string_view* text : {&held.fen, &held.id, &held.error, &held.move_uci, &held.move_san})
    if (!text->empty() && !is_stable(*text)) *text = texts_.emplace_back(*text);
  // A game's tag texts are the same in each of its rows: one copy a game, not one a row.
  for (auto [text, last] :
       {std::pair{&held.all_tags_json, &last_all_tags_json_}, {&held.tag_columns, &last_tag_columns_}})
    if (!text->empty() && !is_stable(*text)) {
      if (*text != *last) *last = texts_.emplace_back(*text);
      *text = *last;
    }
  if (held.tag_count) {  // the game's tag values live in its visitor: keep copies
    std::vector<std::string_view>& values = tag_lists_.emplace_back(held.tag_values, held.tag_values + held.tag_count);
    for (std::string_view& value : values)
      if (!value.empty() && !is_stable(value)) value = texts_.emplace_back(value);
    held.tag_values = values.data();
  }
  if (held.kept_count) {  // the kept columns may point into a worker's scratch: keep copies
    std::vector<std::string_view>& values =
        tag_lists_.emplace_back(held.kept_values, held.kept_values + held.kept_count);
    for (std::string_view& value : values)
      if (!value.empty() && !is_stable(value)) value = texts_.emplace_back(value);
    held.kept_values = values.data();
  }
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
  tag_lists_.clear();
  classified_.clear();
  positions_.clear();
  repetitions_.clear();
  any_history_ = false;
}

}  // namespace perftkit
