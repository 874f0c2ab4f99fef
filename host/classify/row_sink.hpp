// Where the rows of a block go once parsed: written at once with the position classified on
// the spot (the CPU), or held until the block's positions are classified in one batch
// (the GPU), then written in input order. Either way each row is formatted and counted once.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "classify/batch.hpp"
#include "common/byte_buffer.hpp"
#include "common/chunk_arena.hpp"
#include "classify/format.hpp"
#include "classify/row.hpp"
#include "classify/row_filter.hpp"
#include "classify/summary.hpp"

namespace perftkit {

class RowSink {
 public:
  virtual ~RowSink() = default;
  // A valid row whose classification is that of pos with its repetition count. The row's
  // text views need only last for the call.
  virtual void position_row(ClassifyRow& row, const Position& pos, int repetitions) = 0;
  // Valid rows in order, rows[i] that of positions[i] with repetitions[i] (repetitions
  // kept in 8 bits, as classify() saturates them); views as for position_row. A sink may
  // classify them together.
  virtual void position_rows(std::span<ClassifyRow> rows, std::span<const Position> positions,
                             std::span<const std::uint8_t> repetitions) {
    for (std::size_t i = 0; i < rows.size(); ++i) position_row(rows[i], positions[i], repetitions[i]);
  }
  // A complete row (a rejected one); its views need only last for the call.
  virtual void finished_row(const ClassifyRow& row) = 0;
  // Writes whatever is held back; the sink is empty afterwards.
  virtual void flush() {}
  // What formats the rows (a game's tag columns are formatted with it once per game).
  virtual const RowFormatter& formatter() const = 0;
};

class ImmediateRowSink final : public RowSink {
 public:
  // filter: the rows written (nullptr: all); the summary counts every row.
  ImmediateRowSink(const RowFormatter& formatter, ByteBuffer& out, ClassifySummary& summary,
                   const RowFilter* filter = nullptr)
      : formatter_(formatter), out_(out), summary_(summary), filter_(filter) {}

  void position_row(ClassifyRow& row, const Position& pos, int repetitions) override {
    row.cls = classify(pos, repetitions);
    finished_row(row);
  }
  // Classified together by the CPU kernels (eight at once where AVX-512 runs).
  void position_rows(std::span<ClassifyRow> rows, std::span<const Position> positions,
                     std::span<const std::uint8_t> repetitions) override;
  void finished_row(const ClassifyRow& row) override {
    if (!filter_ || filter_->keeps(row)) formatter_.row(out_, row);
    summary_.add(row);
  }
  const RowFormatter& formatter() const override { return formatter_; }

 private:
  const RowFormatter& formatter_;
  ByteBuffer& out_;
  ClassifySummary& summary_;
  const RowFilter* filter_;
};

class BatchedRowSink final : public RowSink {
 public:
  // Views into `stable` (the block's text, alive until flush) are held as they are; any
  // other text of a row is copied.
  BatchedRowSink(BatchClassifier& classifier, const RowFormatter& formatter, ByteBuffer& out, ClassifySummary& summary,
                 std::string_view stable = {}, const RowFilter* filter = nullptr)
      : classifier_(classifier),
        formatter_(formatter),
        out_(out),
        summary_(summary),
        stable_(stable),
        filter_(filter) {}

  void position_row(ClassifyRow& row, const Position& pos, int repetitions) override;
  void finished_row(const ClassifyRow& row) override;
  void flush() override;
  const RowFormatter& formatter() const override { return formatter_; }

 private:
  ClassifyRow& hold(const ClassifyRow& row);  // the row, its texts outside stable_ copied
  bool is_stable(std::string_view text) const;
  std::string_view keep(std::string_view text);  // text, or its copy in texts_ when not in stable_
  const std::string_view* keep(const std::string_view* views, std::size_t count);  // a copied list of kept views

  BatchClassifier& classifier_;
  const RowFormatter& formatter_;
  ByteBuffer& out_;
  ClassifySummary& summary_;
  std::string_view stable_;
  const RowFilter* filter_;
  std::vector<ClassifyRow> rows_;
  ChunkArena<char> texts_;                                  // what the held rows' views point at
  std::string_view last_all_tags_json_, last_tag_columns_;  // the last copies of a game's tag texts (in texts_)
  ChunkArena<std::string_view> views_;                      // the held rows' lists of kept values
  std::vector<std::size_t> classified_;                     // indices of the rows that wait for a classification
  std::vector<Position> positions_;
  std::vector<std::uint8_t> repetitions_;
  std::vector<Classification> results_;
  bool any_history_ = false;
};

}  // namespace perftkit
