#include "classify/pending_rows.hpp"

#include <algorithm>

namespace perftkit {

ClassifyRow& PendingRows::add(const Position& pos, int repetitions) {
  if (size_ == CAPACITY) hand_on();
  positions_[size_] = pos;
  repetitions_[size_] = std::uint8_t(std::clamp(repetitions, 0, 255));
  ClassifyRow& row = rows_[size_++];
  row = ClassifyRow{};
  return row;
}

void PendingRows::hand_on() {
  if (size_ == 0) return;
  sink_.position_rows({rows_.data(), size_}, {positions_.data(), size_}, {repetitions_.data(), size_});
  size_ = 0;
}

}  // namespace perftkit
