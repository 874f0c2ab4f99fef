// The streaming engine of `perftkit classify`: a reader thread cuts the inputs into blocks
// of whole lines or whole games, worker threads classify and format the blocks, and the
// calling thread writes them in input order. A fixed pool of blocks bounds the memory,
// whatever the size of the input.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "classify/batch.hpp"
#include "classify/format.hpp"
#include "classify/input.hpp"
#include "classify/lines.hpp"
#include "classify/pgn.hpp"
#include "classify/row_filter.hpp"
#include "classify/summary.hpp"

namespace perftkit {

struct ClassifyStreamOptions {
  InputKind kind = InputKind::AUTO;
  std::vector<InputKind> kinds;  // per input, decided before the run (decide_input_kind); empty: `kind`
  RowFormat format = RowFormat::CSV;
  PgnPositions positions = PgnPositions::ALL;
  unsigned threads = 1;                         // workers
  bool header = true;                           // CSV/TSV header line
  std::size_t line_block_bytes = 1 << 20;       // input bytes per block of FEN/EPD lines
  std::size_t pgn_block_bytes = 1 << 18;        // input bytes per block of PGN games
  std::size_t max_line_bytes = MAX_LINE_BYTES;  // a longer line is reported as rejected, not buffered
  std::size_t max_game_bytes = 1 << 24;         // a longer game is cut at a line break
  BatchClassifierFactory batch_classifier;      // set: each block's positions are classified as one batch
  RowFilter filter;                             // the rows written (--only); the summary counts all
  GameColumns columns;                          // PGN game columns after the classification's
  std::string fen_column;                       // tables: the FEN's column (name or 1-based number; "": "fen")
  std::vector<std::string> keep_columns;        // tables: columns carried over (also in columns.kept)
};

struct ClassifyStreamResult {
  ClassifySummary summary;
  std::uint64_t rejected = 0;  // rows with valid = false
};

// Called on the writing thread after each block: rows so far, input bytes so far.
using ClassifyStreamProgress = std::function<void(std::uint64_t rows, std::uint64_t bytes)>;

// Classifies every input, in order, writing the rows to out_fd as they are ready. Throws
// std::runtime_error on a read or write error (after stopping every thread).
ClassifyStreamResult run_classify_stream(std::vector<ClassifyInput>& inputs, const ClassifyStreamOptions& options,
                                         int out_fd, const ClassifyStreamProgress& progress = {});

}  // namespace perftkit
