#include "classify/pending_rows.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace perftkit {
namespace {

// A row as ClassifyRow{} makes it, copied in sixteen bytes at a time: the compiler clears a
// row with rep stos, whose start-up costs more than the row's 240 bytes.
const ClassifyRow CLEARED_ROW{};

void clear(ClassifyRow& row) {
  static_assert(std::is_trivially_copyable_v<ClassifyRow> && sizeof(ClassifyRow) % 16 == 0);
  const char* from = reinterpret_cast<const char*>(&CLEARED_ROW);
  char* to = reinterpret_cast<char*>(&row);
  for (std::size_t i = 0; i < sizeof(ClassifyRow); i += 16) std::memcpy(to + i, from + i, 16);
}

}  // namespace

ClassifyRow& PendingRows::add(const Position& pos, int repetitions) {
  if (size_ == CAPACITY) hand_on();
  positions_[size_] = pos;
  repetitions_[size_] = std::uint8_t(std::clamp(repetitions, 0, 255));
  ClassifyRow& row = rows_[size_++];
  clear(row);
  return row;
}

void PendingRows::hand_on() {
  if (size_ == 0) return;
  sink_.position_rows({rows_.data(), size_}, {positions_.data(), size_}, {repetitions_.data(), size_});
  size_ = 0;
}

}  // namespace perftkit
