// perftkit.classify_file's C++ half. The CLI's classify stream (every input kind, compressed
// or not, game and table columns, selections) runs on threads of its own and writes its rows
// as TSV into a pipe; the reader turns them into typed columns a batch at a time. A stream
// whose reader is dropped stops at its next write (the pipe is closed).
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bindings.hpp"
#include "classify/format.hpp"
#include "classify/input.hpp"
#include "classify/stream_choices.hpp"
#include "columns.hpp"
#include "common/errors.hpp"
#include "common/thread_count.hpp"

namespace nb = nanobind;

namespace perftkit::python {
namespace {

// How a TSV column becomes a numpy column: flags as bool; the two counts as small unsigned
// ints; numbers a row may lack (game, ply, clock, evals, ratings) as float64 with NaN when
// absent; anything else as str, or None when empty.
enum class ColumnKind { BOOL, UINT16, UINT8, NUMBER, TEXT };

std::vector<ColumnKind> column_kinds(const GameColumns& columns) {
  std::vector<ColumnKind> kinds;
  for (const std::string_view name : CLASSIFY_COLUMNS) {
    if (name == "legal_moves") kinds.push_back(ColumnKind::UINT16);
    else if (name == "checkers") kinds.push_back(ColumnKind::UINT8);
    else if (name == "repetitions") kinds.push_back(ColumnKind::NUMBER);
    else if (name == "valid" || name == "in_check" || name == "checkmate" || name == "stalemate" ||
             name == "insufficient_white" || name == "insufficient_black" || name == "dead_by_material" ||
             name == "fifty_move" || name == "seventyfive_move")
      kinds.push_back(ColumnKind::BOOL);
    else kinds.push_back(ColumnKind::TEXT);
  }
  if (columns.game) kinds.push_back(ColumnKind::NUMBER);
  if (columns.ply) kinds.push_back(ColumnKind::NUMBER);
  if (columns.move_uci) kinds.push_back(ColumnKind::TEXT);
  if (columns.move_san) kinds.push_back(ColumnKind::TEXT);
  if (columns.clock) kinds.push_back(ColumnKind::NUMBER);
  if (columns.eval) kinds.insert(kinds.end(), 2, ColumnKind::NUMBER);
  for (const std::string& tag : columns.tags)
    kinds.push_back(is_numeric_tag(tag) ? ColumnKind::NUMBER : ColumnKind::TEXT);
  if (columns.all_tags) kinds.push_back(ColumnKind::TEXT);
  kinds.insert(kinds.end(), columns.kept.size(), ColumnKind::TEXT);
  return kinds;
}

// One column of a batch being read. Text values equal to the previous row's share its str.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(ColumnKind kind) : kind_(kind) {}

  void add(std::string_view field) {
    switch (kind_) {
      case ColumnKind::BOOL: flags_.push_back(field == "1"); break;
      case ColumnKind::UINT16: small_.push_back(unsigned_value(field)); break;
      case ColumnKind::UINT8: small_.push_back(unsigned_value(field)); break;
      case ColumnKind::NUMBER: numbers_.push_back(number_value(field)); break;
      case ColumnKind::TEXT: texts_.push_back(text_value(field)); break;
    }
  }

  nb::object release() {
    switch (kind_) {
      case ColumnKind::BOOL: return numpy_array<bool>(std::move(flags_));
      case ColumnKind::UINT16: return narrowed<std::uint16_t>();
      case ColumnKind::UINT8: return narrowed<std::uint8_t>();
      case ColumnKind::NUMBER: return numpy_array<double>(std::move(numbers_));
      case ColumnKind::TEXT: break;
    }
    ObjectColumn column(texts_.size());
    for (std::size_t i = 0; i < texts_.size(); ++i)
      if (texts_[i].is_valid()) column.set(i, texts_[i]);
    texts_.clear();
    return column.release();
  }

 private:
  static std::uint32_t unsigned_value(std::string_view field) {
    std::uint32_t value = 0;
    std::from_chars(field.data(), field.data() + field.size(), value);
    return value;
  }
  static double number_value(std::string_view field) {
    if (field.empty()) return std::numeric_limits<double>::quiet_NaN();
    double value = std::numeric_limits<double>::quiet_NaN();
    std::from_chars(field.data(), field.data() + field.size(), value);
    return value;
  }
  nb::object text_value(std::string_view field) {
    if (field.empty()) return {};
    if (!last_.is_valid() || field != last_text_) {
      last_ = nb::str(field.data(), field.size());
      last_text_.assign(field);
    }
    return last_;
  }
  template <typename T>
  nb::object narrowed() {
    std::vector<T> values(small_.begin(), small_.end());
    small_.clear();
    return numpy_array<T>(std::move(values));
  }

  ColumnKind kind_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> small_;
  std::vector<double> numbers_;
  std::vector<nb::object> texts_;  // invalid: None
  nb::object last_;
  std::string last_text_;
};

class ClassifyFileReader {
 public:
  ClassifyFileReader(const std::vector<std::string>& paths, const std::string& input, const std::string& positions,
                     const ClassifyChoices& choices, std::optional<unsigned> threads) {
    const auto kind = input_kind_names().find(input);
    if (kind == input_kind_names().end())
      throw UsageError("input: '" + input + "' is not one of auto, fen, epd, pgn, csv, tsv, jsonl");
    const auto chosen = pgn_positions_names().find(positions);
    if (chosen == pgn_positions_names().end())
      throw UsageError("positions: '" + positions + "' is not one of all, final");
    options_.kind = kind->second;
    options_.positions = chosen->second;
    options_.format = RowFormat::TSV;
    options_.threads = threads_or_all_cores(threads.value_or(0));
    apply_classify_choices(choices, options_);
    kinds_ = column_kinds(options_.columns);
    for (const std::string& path : paths) inputs_.emplace_back(path);  // an unreadable file: UsageError now

    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    read_fd_ = ends[0];
    ::fcntl(read_fd_, F_SETPIPE_SZ, 1 << 20);  // fewer wake-ups; the default size works too
    const int write_fd = ends[1];
    worker_ = std::thread([this, write_fd] {
      try {
        run_classify_stream(inputs_, options_, write_fd);
      } catch (...) {
        failure_ = std::current_exception();
      }
      ::close(write_fd);
    });
  }

  ~ClassifyFileReader() {
    if (read_fd_ >= 0) ::close(read_fd_);  // a stream still writing gets EPIPE and stops
    if (worker_.joinable()) {
      nb::gil_scoped_release unlocked;
      worker_.join();
    }
  }

  ClassifyFileReader(const ClassifyFileReader&) = delete;
  ClassifyFileReader& operator=(const ClassifyFileReader&) = delete;

  // The next batch of up to `rows` rows as a dict of columns; None after the last. Raises
  // the stream's error (a damaged compressed input: ValueError) once its rows are all out.
  nb::object next_batch(std::size_t rows) {
    if (rows == 0) throw UsageError("batch_rows: must be at least 1");
    std::vector<ColumnBuilder> batch(kinds_.begin(), kinds_.end());
    std::size_t count = 0;
    while (count < rows) {
      const std::size_t newline = pending_.find('\n', parsed_);
      if (newline == std::string::npos) {
        if (!read_more()) break;
        continue;
      }
      const std::string_view line(pending_.data() + parsed_, newline - parsed_);
      parsed_ = newline + 1;
      if (!header_seen_) {
        header_seen_ = true;
        for (std::size_t begin = 0;;) {
          const std::size_t tab = line.find('\t', begin);
          names_.emplace_back(line.substr(begin, tab == std::string_view::npos ? tab : tab - begin));
          if (tab == std::string_view::npos) break;
          begin = tab + 1;
        }
        if (names_.size() != kinds_.size())
          throw std::runtime_error("classify_file: the stream wrote " + std::to_string(names_.size()) +
                                   " columns, not the " + std::to_string(kinds_.size()) + " expected");
        continue;
      }
      add_row(line, batch);
      ++count;
    }
    if (count == 0) {
      finish();
      return nb::none();
    }
    nb::dict columns;
    for (std::size_t c = 0; c < batch.size(); ++c) columns[nb::str(names_[c].c_str())] = batch[c].release();
    return columns;
  }

 private:
  void add_row(std::string_view line, std::vector<ColumnBuilder>& batch) {
    std::size_t begin = 0;
    for (std::size_t c = 0; c < batch.size(); ++c) {
      const std::size_t tab = c + 1 < batch.size() ? line.find('\t', begin) : line.size();
      if (tab == std::string_view::npos) throw std::runtime_error("classify_file: a row with too few columns");
      batch[c].add(line.substr(begin, tab - begin));
      begin = tab + 1;
    }
  }

  // Reads what the stream has written (waiting for it, without the GIL, and looking for Ctrl-C
  // every 50 ms); false at the end of the stream.
  bool read_more() {
    if (ended_) return false;
    pending_.erase(0, parsed_);
    parsed_ = 0;
    const std::size_t kept = pending_.size();
    pending_.resize(kept + READ_BYTES);
    ssize_t got = 0;
    for (;;) {
      int ready = 0, error = 0;
      {
        nb::gil_scoped_release unlocked;
        pollfd wanted{read_fd_, POLLIN, 0};
        ready = ::poll(&wanted, 1, 50);
        if (ready > 0 && (got = ::read(read_fd_, pending_.data() + kept, READ_BYTES)) < 0) error = errno;
        if (ready < 0) error = errno;
      }
      if (ready > 0 && got >= 0) break;
      if (error != 0 && error != EINTR && error != EAGAIN) {
        pending_.resize(kept);
        throw std::runtime_error(std::string("classify_file: reading the rows: ") + std::strerror(error));
      }
      if (PyErr_CheckSignals() != 0) {
        pending_.resize(kept);
        throw nb::python_error();
      }
    }
    pending_.resize(kept + std::size_t(got));
    if (got == 0) ended_ = true;
    return got > 0;
  }

  // The end of the rows: the stream's own error, or the damage of a compressed input.
  void finish() {
    if (worker_.joinable()) {
      nb::gil_scoped_release unlocked;
      worker_.join();
    }
    if (finished_) return;
    finished_ = true;
    if (failure_) std::rethrow_exception(failure_);
    for (const ClassifyInput& input : inputs_)
      if (const std::optional<std::string> damage = input.damage())
        throw UsageError(*damage + "; every complete record before it was classified");
  }

  static constexpr std::size_t READ_BYTES = 1 << 20;

  ClassifyStreamOptions options_;
  std::vector<ColumnKind> kinds_;
  std::vector<ClassifyInput> inputs_;
  int read_fd_ = -1;
  std::thread worker_;
  std::exception_ptr failure_;
  std::string pending_;
  std::size_t parsed_ = 0;
  std::vector<std::string> names_;
  bool header_seen_ = false, ended_ = false, finished_ = false;
};

}  // namespace

void bind_classify_file(nb::module_& m) {
  nb::class_<ClassifyFileReader>(m, "_ClassifyFileReader",
                                 "The rows of `perftkit classify` over files, a batch at a time "
                                 "(perftkit.classify_file wraps it).")
      .def(nb::init<const std::vector<std::string>&, const std::string&, const std::string&, const ClassifyChoices&,
                    std::optional<unsigned>>(),
           nb::arg("paths"), nb::arg("input"), nb::arg("positions"), nb::arg("choices"), nb::arg("threads"))
      .def("next_batch", &ClassifyFileReader::next_batch, nb::arg("rows"));
  nb::class_<ClassifyChoices>(m, "_ClassifyChoices")
      .def(nb::init<>())
      .def_rw("only", &ClassifyChoices::only)
      .def_rw("game_over", &ClassifyChoices::game_over)
      .def_rw("columns", &ClassifyChoices::columns)
      .def_rw("tags", &ClassifyChoices::tags)
      .def_rw("fen_column", &ClassifyChoices::fen_column)
      .def_rw("keep_columns", &ClassifyChoices::keep_columns);
}

}  // namespace perftkit::python
