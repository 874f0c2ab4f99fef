// Valid rows that wait to be classified together (RowSink::position_rows), in input order,
// each with its position, its repetition count and room for the texts that change from row
// to row (a FEN, a UCI move), which the row's views then point into. Whoever adds rows
// hands them on before any other row of theirs and before the texts their other views
// point into go.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "classify/row.hpp"
#include "classify/row_sink.hpp"

namespace perftkit {

class PendingRows {
 public:
  // Eight of each side to move: one batch each for the AVX-512 counter.
  static constexpr std::size_t CAPACITY = 16;
  // Room for a row's own FEN text (a FEN as written, or a table's FEN column rewritten).
  static constexpr std::size_t FEN_ROOM = 160;
  static constexpr std::size_t MOVE_ROOM = 8;

  explicit PendingRows(RowSink& sink) : sink_(sink) {}

  // A cleared row for pos, to fill; the rows waiting are handed on first when all slots
  // are taken. repetitions saturates at 255, as classify() reads it.
  ClassifyRow& add(const Position& pos, int repetitions);
  // Room for the last added row's FEN and move texts.
  char* fen_room() { return fens_[size_ - 1].data(); }
  char* move_room() { return moves_[size_ - 1].data(); }

  // Gives the waiting rows to the sink, in order.
  void hand_on();

 private:
  RowSink& sink_;
  std::size_t size_ = 0;
  std::array<ClassifyRow, CAPACITY> rows_;
  std::array<Position, CAPACITY> positions_;
  std::array<std::uint8_t, CAPACITY> repetitions_;
  std::array<std::array<char, FEN_ROOM>, CAPACITY> fens_;
  std::array<std::array<char, MOVE_ROOM>, CAPACITY> moves_;
};

}  // namespace perftkit
