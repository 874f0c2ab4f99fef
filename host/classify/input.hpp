// The input files of `perftkit classify`: opened up front (an unreadable one is a usage
// error before any output), read in large blocks with read(2), no iostreams. zstd, gzip and
// bzip2 streams (files or standard input) are recognised by their magic bytes and
// decompressed in a thread of their own (common/decompressing_reader.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perftkit {

class DecompressingReader;

// What a file holds: FEN/EPD lines, PGN games, or a table (CSV/TSV with a header, JSON
// Lines); AUTO decides from its name and first bytes.
enum class InputKind { AUTO, LINES, PGN, CSV, TSV, JSONL };

class ClassifyInput {
 public:
  // "-" is standard input. Throws UsageError with the reason when the file cannot be read.
  explicit ClassifyInput(std::string path);
  ClassifyInput(ClassifyInput&& other) noexcept;
  ClassifyInput& operator=(ClassifyInput&&) = delete;
  ~ClassifyInput();

  // Reads up to n bytes (decompressed) into p; 0 at the end. Throws std::runtime_error on a
  // read error, UsageError on a NUL byte in the first 4 KiB (a binary file, named with the
  // byte's offset); a later one is handed on (damage in one record) and noted.
  std::size_t read(char* p, std::size_t n);
  // The first bytes of text (up to n, fewer at the end), before any read(): they are not
  // consumed, read() hands them out. For deciding the kind of input before anything is written.
  std::string_view peek(std::size_t n);
  // Whether a read since the last call handed on a NUL byte (then cleared): the records read
  // since may hold one, and only then do the readers look for it.
  bool take_nul_seen() { return std::exchange(nul_seen_, false); }
  // Bytes taken from the file so far (compressed ones, for a compressed stream): progress
  // against size().
  std::uint64_t bytes_read() const;
  // After read() returned 0: why a compressed stream ended early ("FILE: truncated zstd
  // stream: ... at compressed byte N"), or nullopt.
  std::optional<std::string> damage() const;
  // "zstd", "gzip", "bzip2" or "none".
  const char* compression() const;

  const std::string& name() const { return name_; }  // as shown in the source column
  std::uint64_t size() const { return size_; }       // bytes; 0 when unknown (a pipe)
  // A ".pgn" name, also under a compression suffix (".pgn.zst", ".pgn.gz", ".pgn.bz2").
  bool has_pgn_extension() const;
  // CSV, TSV or JSONL for a ".csv", ".tsv", ".jsonl" or ".ndjson" name (also under a
  // compression suffix); AUTO otherwise.
  InputKind table_kind_by_name() const;

 private:
  std::size_t read_text(char* p, std::size_t n);
  void check_nul(const char* p, std::size_t n);

  std::string path_, name_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string head_;  // the first bytes, read to detect compression, not yet handed out
  std::size_t head_used_ = 0;
  std::uint64_t plain_bytes_read_ = 0;
  std::uint64_t text_bytes_read_ = 0;  // decompressed bytes handed out by read()
  bool nul_seen_ = false;              // a NUL byte past the first 4 KiB since take_nul_seen()
  std::string peeked_;                 // text read by peek(), handed out first by read()
  std::size_t peeked_used_ = 0;
  const char* compression_ = "none";
  std::unique_ptr<DecompressingReader> decompressor_;
};

// LINES or PGN for a file with this extension and these first bytes (PGN: a ".pgn" name, or
// a first token that is a tag "[" or a move number "1.").
InputKind detect_input_kind(bool pgn_extension, std::string_view head);

// The kind input is read as: `asked` unless AUTO; else CSV, TSV or JSONL by its name; else
// LINES or PGN by its name and first 4 KiB (peeked, not consumed).
InputKind decide_input_kind(ClassifyInput& input, InputKind asked);

// "FEN/EPD lines", "PGN", "CSV", "TSV", "JSON Lines" (AUTO: "text").
const char* input_kind_label(InputKind kind);

}  // namespace perftkit
