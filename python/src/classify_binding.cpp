// perftkit.classify's C++ half: one row per text (a FEN, a 4-field EPD position or an EPD
// line), classified on every core without the GIL, returned as numpy columns. A text that is
// not a position gives a row with valid False and the CLI's reason in `error`; nothing is
// dropped.
#include <nanobind/stl/optional.h>

#include <algorithm>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "classify/format.hpp"
#include "classify/lines.hpp"
#include "classify/position_line.hpp"
#include "columns.hpp"
#include "common/parallel_for.hpp"
#include "common/thread_count.hpp"
#include "interruptible.hpp"
#include "notation/fen.hpp"
#include "perft/cpu_kernels.hpp"
#include "perftkit/classify.hpp"

namespace nb = nanobind;

namespace perftkit::python {
namespace {

// The texts of the rows, copied out of their Python objects into one buffer (the work runs
// without the GIL, while other threads may change the objects), or why a row has no text.
struct RowTexts {
  std::string bytes;
  std::vector<std::size_t> ends;                                // row i is bytes[ends[i - 1], ends[i])
  std::vector<std::pair<std::size_t, const char*>> unreadable;  // (row, reason)

  std::size_t size() const { return ends.size(); }
  std::string_view text(std::size_t i) const {
    const std::size_t begin = i ? ends[i - 1] : 0;
    return {bytes.data() + begin, ends[i] - begin};
  }
};

void append_text(RowTexts& rows, PyObject* item) {
  const std::size_t row = rows.ends.size();
  if (PyUnicode_Check(item)) {
    Py_ssize_t size = 0;
    if (const char* utf8 = PyUnicode_AsUTF8AndSize(item, &size)) {
      rows.bytes.append(utf8, std::size_t(size));
    } else {
      PyErr_Clear();
      rows.unreadable.emplace_back(row, "text: not encodable as UTF-8");
    }
  } else if (PyBytes_Check(item)) {
    rows.bytes.append(PyBytes_AS_STRING(item), std::size_t(PyBytes_GET_SIZE(item)));
  } else if (item == Py_None) {
    rows.unreadable.emplace_back(row, "text: missing (None)");
  } else {
    rows.unreadable.emplace_back(row, "text: not a str or bytes value");
  }
  rows.ends.push_back(rows.bytes.size());
}

RowTexts read_texts(nb::handle texts) {
  PyObject* sequence = PySequence_Fast(texts.ptr(), "classify() takes a sequence of FEN strings");
  if (!sequence) throw nb::python_error();
  const nb::object owner = nb::steal(sequence);
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
  PyObject** items = PySequence_Fast_ITEMS(sequence);
  RowTexts rows;
  rows.ends.reserve(std::size_t(count));
  rows.bytes.reserve(std::size_t(count) * 64);
  for (Py_ssize_t i = 0; i < count; ++i) append_text(rows, items[i]);
  return rows;
}

enum class Side : std::uint8_t { NONE, WHITE_TO_MOVE, BLACK_TO_MOVE };
// The winner column of the CLI (winner_name): none while the game goes on, else who won, or a draw.
enum class Result : std::uint8_t { NONE, WHITE_WINS, BLACK_WINS, DRAW };

struct Columns {
  explicit Columns(std::size_t n)
      : legal_moves(n),
        checkers(n),
        in_check(n),
        checkmate(n),
        stalemate(n),
        insufficient_white(n),
        insufficient_black(n),
        dead_by_material(n),
        fifty_move(n),
        seventyfive_move(n),
        valid(n),
        termination(n),
        winner(n),
        side(n) {}

  NumpyColumn<std::uint16_t> legal_moves;
  NumpyColumn<std::uint8_t> checkers;
  NumpyColumn<bool> in_check, checkmate, stalemate, insufficient_white, insufficient_black, dead_by_material,
      fifty_move, seventyfive_move, valid;
  std::vector<Termination> termination;
  std::vector<Result> winner;
  std::vector<Side> side;

  void set(std::size_t i, const Position& pos, const Classification& c) {
    legal_moves[i] = c.legal_moves;
    checkers[i] = c.checkers;
    in_check[i] = c.in_check;
    checkmate[i] = c.checkmate;
    stalemate[i] = c.stalemate;
    insufficient_white[i] = c.insufficient_white;
    insufficient_black[i] = c.insufficient_black;
    dead_by_material[i] = c.dead_by_material();
    fifty_move[i] = c.fifty_move;
    seventyfive_move[i] = c.seventyfive_move;
    valid[i] = true;
    termination[i] = c.termination;
    winner[i] = c.termination == Termination::NONE ? Result::NONE
                : c.winner == Winner::WHITE_WINS   ? Result::WHITE_WINS
                : c.winner == Winner::BLACK_WINS   ? Result::BLACK_WINS
                                                   : Result::DRAW;
    side[i] = pos.side_to_move == WHITE ? Side::WHITE_TO_MOVE : Side::BLACK_TO_MOVE;
  }
};

using RowErrors = std::vector<std::pair<std::size_t, std::string>>;

// The position of row i, or why it is not one (the CLI's reasons).
std::optional<std::string> read_row(const RowTexts& rows, std::size_t i, Position& pos) {
  const std::string_view text = rows.text(i);
  if (text.size() > MAX_LINE_BYTES)
    return "line: longer than " + std::to_string(MAX_LINE_BYTES) + " bytes (not a position)";
  const PositionLine line = split_position_line(text);
  if (line.blank) return std::string("text: no position (empty, or a '#' comment)");
  const FenResult parsed = line.epd ? parse_epd(line.position) : parse_fen(line.position);
  if (!parsed) return parsed.error;
  pos = parsed->position;
  return std::nullopt;
}

// Rows in blocks of this many: a few hundred microseconds of work a block.
constexpr std::size_t ROWS_PER_BLOCK = 2048;

RowErrors classify_all(const RowTexts& rows, Columns& columns, unsigned threads) {
  const std::size_t blocks = (rows.size() + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
  std::vector<RowErrors> block_errors(blocks);
  std::vector<bool> unreadable(rows.size());
  for (const auto& [row, reason] : rows.unreadable) unreadable[row] = true;
  const CpuKernels& kernels = cpu_kernels();
  parallel_for(blocks, threads, [&](unsigned, std::size_t block) {
    // A block's positions are read first, then classified together (eight at once where
    // the AVX-512 kernels run).
    std::vector<std::size_t> valid_rows;
    std::vector<Position> positions;
    const std::size_t end = std::min(rows.size(), (block + 1) * ROWS_PER_BLOCK);
    for (std::size_t i = block * ROWS_PER_BLOCK; i < end; ++i) {
      if (unreadable[i]) continue;
      Position pos;
      if (std::optional<std::string> error = read_row(rows, i, pos)) {
        block_errors[block].emplace_back(i, std::move(*error));
      } else {
        valid_rows.push_back(i);
        positions.push_back(pos);
      }
    }
    std::vector<Classification> classified(positions.size());
    kernels.classify_batch(positions.data(), nullptr, positions.size(), classified.data());
    for (std::size_t k = 0; k < positions.size(); ++k) columns.set(valid_rows[k], positions[k], classified[k]);
  });
  RowErrors errors;
  for (const auto& [row, reason] : rows.unreadable) errors.emplace_back(row, reason);
  for (RowErrors& block : block_errors)
    for (auto& e : block) errors.push_back(std::move(e));
  return errors;
}

// An object array of the same few strings (or None), one per row.
template <typename Code, typename Name>
nb::object text_column(const std::vector<Code>& codes, Name name_of) {
  ObjectColumn names(codes.size());
  std::vector<nb::object> made;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::size_t k = std::size_t(codes[i]);
    if (k >= made.size()) made.resize(k + 1);
    if (!made[k].is_valid()) {
      const std::string_view name = name_of(codes[i]);
      made[k] = name.empty() ? nb::none() : nb::object(nb::str(name.data(), name.size()));
    }
    if (!made[k].is_none()) names.set(i, made[k]);
  }
  return names.release();
}

// The rows and their columns, owned by the work (it may outlive the call: interruptible.hpp).
struct ClassifyJob {
  explicit ClassifyJob(RowTexts texts) : rows(std::move(texts)), columns(rows.size()) {}
  RowTexts rows;
  Columns columns;
};

nb::dict classify_texts(nb::handle texts, std::optional<unsigned> threads) {
  const auto job = std::make_shared<ClassifyJob>(read_texts(texts));
  const std::size_t n = job->rows.size();
  Columns& columns = job->columns;
  const unsigned workers = threads_or_all_cores(threads.value_or(0));
  const RowErrors errors = run_interruptibly([job, workers] { return classify_all(job->rows, job->columns, workers); });

  ObjectColumn error_column(n);
  for (const auto& [row, reason] : errors) error_column.set(row, nb::str(reason.data(), reason.size()));
  nb::dict result;
  result["valid"] = columns.valid.release();
  result["error"] = error_column.release();
  result["side_to_move"] = text_column(columns.side, [](Side s) {
    return s == Side::WHITE_TO_MOVE ? std::string_view("w") : s == Side::BLACK_TO_MOVE ? "b" : "";
  });
  result["legal_moves"] = columns.legal_moves.release();
  result["in_check"] = columns.in_check.release();
  result["checkers"] = columns.checkers.release();
  result["checkmate"] = columns.checkmate.release();
  result["stalemate"] = columns.stalemate.release();
  result["insufficient_white"] = columns.insufficient_white.release();
  result["insufficient_black"] = columns.insufficient_black.release();
  result["dead_by_material"] = columns.dead_by_material.release();
  result["fifty_move"] = columns.fifty_move.release();
  result["seventyfive_move"] = columns.seventyfive_move.release();
  result["outcome"] = text_column(columns.termination, termination_name);
  result["winner"] = text_column(columns.winner, [](Result r) {
    return r == Result::WHITE_WINS   ? std::string_view("white")
           : r == Result::BLACK_WINS ? "black"
           : r == Result::DRAW       ? "draw"
                                     : "";
  });
  return result;
}

}  // namespace

void bind_classify(nb::module_& m) {
  m.def("_classify_texts", &classify_texts, nb::arg("texts"), nb::arg("threads") = nb::none(),
        "Classifies a sequence of str or bytes, one position each: a dict of numpy columns (object\n"
        "arrays of str or None for text). perftkit.classify wraps it.");
}

}  // namespace perftkit::python
