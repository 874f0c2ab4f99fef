#include "classify/stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "common/byte_buffer.hpp"
#include "classify/lines.hpp"
#include "common/blocking_queue.hpp"
#include "notation/pgn_split.hpp"
#include "common/errors.hpp"
#include "common/output_file.hpp"

namespace perftkit {
namespace {

// One unit of work: a block of whole lines or whole games of one input, and its rows.
struct Block {
  std::uint64_t sequence = 0;
  std::size_t input = 0;
  InputKind kind = InputKind::LINES;
  std::uint64_t first_line = 1, first_game = 1;
  bool long_line = false;               // text is the start of one line too long to keep
  const TableLayout* layout = nullptr;  // table input: where the FEN and kept columns are
  std::uint64_t input_bytes = 0;        // input consumed by this block (for progress)
  ByteBuffer text;
  std::vector<GameSpan> games;
  ByteBuffer out;
  ClassifySummary summary;
  std::uint64_t rejected = 0;
  bool may_hold_nul = false;  // the reader saw a NUL byte (past the input's first 4 KiB) in text
};

void write_all(int fd, std::string_view data) {
  if (!write_fully(fd, data)) throw RuntimeFailure(std::string("cannot write the output: ") + std::strerror(errno));
}

class Pipeline {
 public:
  Pipeline(std::vector<ClassifyInput>& inputs, const ClassifyStreamOptions& options, int out_fd,
           const ClassifyStreamProgress& progress)
      : inputs_(inputs), options_(options), out_fd_(out_fd), progress_(progress) {
    for (const ClassifyInput& input : inputs_) formatters_.emplace_back(options.format, input.name(), options.columns);
    layouts_.resize(inputs_.size());
    // Two blocks a worker, and eight more queued ahead or waiting to be written, so that the
    // one reader thread (and a decompressing one) can fall behind for a while unnoticed.
    const std::size_t pool = 2 * std::size_t(std::max(1u, options.threads)) + 8;
    for (std::size_t i = 0; i < pool; ++i) {
      blocks_.push_back(std::make_unique<Block>());
      free_.push(blocks_.back().get());
    }
    done_.assign(pool, nullptr);
  }

  ClassifyStreamResult run() {
    try {
      threads_.emplace_back([this] { guarded([this] { read_all(); }); });
      for (unsigned i = 0; i < std::max(1u, options_.threads); ++i)
        threads_.emplace_back([this, i] { guarded([this, i] { work(i); }); });
      write_in_order();
    } catch (...) {
      fail(std::current_exception());
    }
    for (std::thread& t : threads_) t.join();
    if (error_) std::rethrow_exception(error_);
    return std::move(result_);
  }

 private:
  template <typename F>
  void guarded(F&& body) {
    try {
      body();
    } catch (...) {
      fail(std::current_exception());
    }
  }

  // Stops every thread; the first error is the one reported.
  void fail(std::exception_ptr error) {
    {
      std::lock_guard lock(done_mutex_);
      if (!error_) error_ = error;
      failed_ = true;
    }
    done_ready_.notify_all();
    free_.abort();
    work_.abort();
  }

  // --- the reader thread ---

  void read_all() {
    std::uint64_t sequence = 0;
    for (std::size_t i = 0; i < inputs_.size() && !failed_; ++i) read_input(i, sequence);
    work_.close();
    {
      std::lock_guard lock(done_mutex_);
      total_blocks_ = sequence;
      reader_done_ = true;
    }
    done_ready_.notify_all();
  }

  // Appends input until buf holds at least target bytes or the input ends; returns the bytes
  // taken from the file (compressed ones, for a compressed stream).
  std::uint64_t fill(ClassifyInput& input, ByteBuffer& buf, std::size_t target, bool& eof) {
    const std::uint64_t before = input.bytes_read();
    while (!eof && buf.size() < target) {
      const std::size_t want = std::max<std::size_t>(target - buf.size(), 1 << 16);
      char* p = buf.reserve(want);
      const std::size_t got = input.read(p, want);
      if (got == 0) eof = true;
      buf.commit(p + got);
    }
    return input.bytes_read() - before;
  }

  void read_input(std::size_t index, std::uint64_t& sequence) {
    ClassifyInput& input = inputs_[index];
    InputKind kind = index < options_.kinds.size() ? options_.kinds[index] : options_.kind;
    std::uint64_t line = 1, game = 1;
    bool eof = false, first = true;
    carry_.clear();
    carry_may_hold_nul_ = false;
    for (;;) {
      const std::optional<Block*> next = free_.pop();
      if (!next) return;
      Block& b = **next;
      b.input = index;
      b.long_line = false;
      b.games.clear();
      b.text.clear();
      b.text.append(carry_.view());
      b.may_hold_nul = carry_may_hold_nul_;
      carry_.clear();
      const std::size_t target = kind == InputKind::PGN ? options_.pgn_block_bytes : options_.line_block_bytes;
      b.input_bytes = fill(input, b.text, target, eof);
      if (first) {
        first = false;
        if (b.text.view().substr(0, 3) == "\xEF\xBB\xBF") {  // a UTF-8 byte order mark
          std::memmove(b.text.data(), b.text.data() + 3, b.text.size() - 3);
          b.text.truncate(b.text.size() - 3);
        }
        if (kind == InputKind::AUTO) kind = input.table_kind_by_name();
        if (kind == InputKind::AUTO) kind = detect_input_kind(input.has_pgn_extension(), b.text.view());
        if (kind == InputKind::CSV || kind == InputKind::TSV) read_header(input, b, eof, index, kind, line);
        if (kind == InputKind::JSONL) layouts_[index] = jsonl_layout(options_.fen_column, options_.keep_columns);
      }
      b.layout = &layouts_[index];
      b.kind = kind;
      if (kind == InputKind::PGN) cut_games(input, b, eof, game);
      else cut_lines(input, b, eof, line);
      b.may_hold_nul = input.take_nul_seen() || b.may_hold_nul;
      carry_may_hold_nul_ = b.may_hold_nul;  // (the carried part was read with this block)
      b.sequence = sequence++;
      work_.push(&b);
      // A damaged stream ends with an incomplete record: it is dropped, never classified.
      if (eof && (carry_.size() == 0 || input.damage())) {
        carry_.clear();
        return;
      }
    }
  }

  // The header line of a CSV/TSV input: where the FEN and the kept columns are. It is taken
  // out of the block; the rows then start at line 2.
  void read_header(ClassifyInput& input, Block& b, bool& eof, std::size_t index, InputKind kind, std::uint64_t& line) {
    while (!eof && b.text.view().find('\n') == std::string_view::npos && b.text.size() < options_.max_line_bytes)
      b.input_bytes += fill(input, b.text, b.text.size() + options_.line_block_bytes, eof);
    const std::string_view text = b.text.view();
    const std::size_t eol = text.find('\n');
    const std::size_t header_end = eol == std::string_view::npos ? text.size() : eol + 1;
    layouts_[index] = table_layout_from_header(kind == InputKind::TSV ? TableFormat::TSV : TableFormat::CSV,
                                               text.substr(0, header_end - (eol != std::string_view::npos)),
                                               options_.fen_column, options_.keep_columns, input.name());
    std::memmove(b.text.data(), b.text.data() + header_end, text.size() - header_end);
    b.text.truncate(text.size() - header_end);
    line = 2;
  }

  // Keeps whole lines in b; the partial last line waits in carry_ for the next block.
  void cut_lines(ClassifyInput& input, Block& b, bool& eof, std::uint64_t& line) {
    b.first_line = line;
    const char* eol = nullptr;
    while (!eof && !(eol = last_line_end(b.text.view()))) {
      if (b.text.size() >= options_.max_line_bytes) return cut_long_line(input, b, eof, line);
      b.input_bytes += fill(input, b.text, b.text.size() + options_.line_block_bytes, eof);
    }
    if (eof && input.damage()) eol = last_line_end(b.text.view());  // the last line may be cut
    if (!eof || input.damage()) {
      const std::size_t keep = eol ? std::size_t(eol - b.text.data()) + 1 : 0;
      carry_.append(b.text.view().substr(keep));
      b.text.truncate(keep);
    }
    const std::string_view text = b.text.view();
    line += std::uint64_t(std::count(text.begin(), text.end(), '\n'));
  }

  static const char* last_line_end(std::string_view text) {
    return static_cast<const char*>(::memrchr(text.data(), '\n', text.size()));
  }

  // A line longer than max_line_bytes: the block keeps its start (to be reported), the rest
  // is read and dropped up to its end.
  void cut_long_line(ClassifyInput& input, Block& b, bool& eof, std::uint64_t& line) {
    b.long_line = true;
    b.text.truncate(64);
    ++line;
    while (!eof) {
      scratch_.clear();
      b.input_bytes += fill(input, scratch_, 1 << 16, eof);
      const std::string_view chunk = scratch_.view();
      const std::size_t eol = chunk.find('\n');
      if (eol != std::string_view::npos) {
        carry_.append(chunk.substr(eol + 1));
        return;
      }
    }
  }

  // Keeps whole games in b; an unfinished game waits in carry_. A game that outgrows
  // max_game_bytes is cut at a line break (its parts are then reported as games of their own).
  void cut_games(ClassifyInput& input, Block& b, bool& eof, std::uint64_t& game) {
    std::size_t consumed = 0;
    for (;;) {
      const std::string_view text = b.text.view();
      b.games.clear();
      consumed = 0;
      while (consumed < text.size()) {
        // A damaged stream's last game is complete only with its termination marker.
        const GameExtent extent = find_game_end(text.substr(consumed), eof && !input.damage());
        if (!extent.complete || extent.end == 0) break;
        if (extent.has_content) b.games.push_back({consumed, consumed + extent.end});
        consumed += extent.end;
      }
      if (consumed > 0 || eof) break;  // (a damaged stream's unfinished game stays in carry_)
      if (text.size() >= options_.max_game_bytes) {
        const std::size_t eol = text.rfind('\n');
        consumed = eol == std::string_view::npos ? text.size() : eol + 1;
        b.games.push_back({0, consumed});
        break;
      }
      b.input_bytes += fill(input, b.text, text.size() + options_.pgn_block_bytes, eof);
    }
    carry_.append(b.text.view().substr(consumed));
    b.text.truncate(consumed);
    b.first_game = game;
    game += b.games.size();
  }

  // --- the worker threads ---

  void work(unsigned worker) {
    const std::unique_ptr<BatchClassifier> batch =
        options_.batch_classifier ? options_.batch_classifier(worker) : nullptr;
    while (const std::optional<Block*> next = work_.pop()) {
      Block& b = **next;
      b.out.clear();
      b.summary = ClassifySummary{};
      const RowFormatter& formatter = formatters_[b.input];
      std::optional<ImmediateRowSink> immediate;
      std::optional<BatchedRowSink> batched;
      RowSink& sink = batch ? static_cast<RowSink&>(
                                  batched.emplace(*batch, formatter, b.out, b.summary, b.text.view(), &options_.filter))
                            : static_cast<RowSink&>(immediate.emplace(formatter, b.out, b.summary, &options_.filter));
      if (b.long_line) {
        report_long_line(b.text.view(), b.first_line, options_.max_line_bytes, sink);
        b.rejected = 1;
      } else if (b.kind == InputKind::CSV || b.kind == InputKind::TSV || b.kind == InputKind::JSONL) {
        b.rejected =
            classify_table_lines(b.text.view(), b.first_line, *b.layout, sink, options_.max_line_bytes, b.may_hold_nul);
      } else if (b.kind == InputKind::PGN) {
        b.rejected = classify_games(b.text.view(), b.games, b.first_game, options_.positions, sink, b.summary,
                                    options_.columns, b.may_hold_nul);
      } else {
        b.rejected = classify_lines(b.text.view(), b.first_line, sink, options_.max_line_bytes, b.may_hold_nul);
      }
      sink.flush();
      {
        std::lock_guard lock(done_mutex_);
        done_[b.sequence % done_.size()] = &b;
      }
      done_ready_.notify_all();
    }
  }

  // --- the writing thread (the caller's) ---

  // The header goes out with the first block's rows (or alone at the end of an empty input),
  // so that an input refused on its first block (a CSV header without a --keep-columns
  // name) leaves the output empty.
  void write_in_order() {
    bool header_pending = options_.header && options_.format != RowFormat::JSONL && !formatters_.empty();
    const auto write_header = [&] {
      if (!std::exchange(header_pending, false)) return;
      ByteBuffer header;
      formatters_.front().header(header);
      write_all(out_fd_, header.view());
    };
    std::uint64_t rows = 0, bytes = 0;
    for (std::uint64_t next = 0;; ++next) {
      Block* b = nullptr;
      {
        std::unique_lock lock(done_mutex_);
        Block*& slot = done_[next % done_.size()];
        done_ready_.wait(lock, [&] {
          return failed_ || (slot && slot->sequence == next) || (reader_done_ && next >= total_blocks_);
        });
        if (failed_) return;
        if (!(slot && slot->sequence == next)) break;
        b = slot;
        slot = nullptr;
      }
      write_header();
      write_all(out_fd_, b->out.view());
      result_.summary += b->summary;
      result_.rejected += b->rejected;
      rows += b->summary.rows;
      bytes += b->input_bytes;
      if (progress_) progress_(rows, bytes);
      free_.push(b);
    }
    write_header();  // an input without a row still gets its header
  }

  std::vector<ClassifyInput>& inputs_;
  const ClassifyStreamOptions& options_;
  int out_fd_;
  const ClassifyStreamProgress& progress_;
  std::vector<RowFormatter> formatters_;
  std::vector<std::unique_ptr<Block>> blocks_;
  BlockingQueue<Block*> free_, work_;
  std::vector<std::thread> threads_;
  ByteBuffer carry_, scratch_;        // the reader's
  bool carry_may_hold_nul_ = false;   // carry_ was read with a block that may hold a NUL byte
  std::vector<TableLayout> layouts_;  // per input, set by the reader before its first block

  std::mutex done_mutex_;
  std::condition_variable done_ready_;
  std::vector<Block*> done_;  // finished blocks by sequence modulo the pool size
  std::uint64_t total_blocks_ = 0;
  bool reader_done_ = false;
  std::atomic<bool> failed_ = false;
  std::exception_ptr error_;

  ClassifyStreamResult result_;
};

}  // namespace

ClassifyStreamResult run_classify_stream(std::vector<ClassifyInput>& inputs, const ClassifyStreamOptions& options,
                                         int out_fd, const ClassifyStreamProgress& progress) {
  return Pipeline(inputs, options, out_fd, progress).run();
}

}  // namespace perftkit
