// The input files of `perftkit classify`: opened up front (an unreadable one is a usage
// error before any output), read in large blocks with read(2), no iostreams.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perftkit {

// What a file holds: FEN/EPD lines, or PGN games; AUTO decides from its name and first bytes.
enum class InputKind { AUTO, LINES, PGN };

class ClassifyInput {
 public:
  // "-" is standard input. Throws UsageError with the reason when the file cannot be read.
  explicit ClassifyInput(std::string path);
  ClassifyInput(ClassifyInput&& other) noexcept;
  ClassifyInput& operator=(ClassifyInput&&) = delete;
  ~ClassifyInput();

  // Reads up to n bytes into p; 0 at the end. Throws std::runtime_error on a read error.
  std::size_t read(char* p, std::size_t n);

  const std::string& name() const { return name_; }        // as shown in the source column
  std::uint64_t size() const { return size_; }             // bytes; 0 when unknown (a pipe)
  bool has_pgn_extension() const;

 private:
  std::string path_, name_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// LINES or PGN for a file with this extension and these first bytes (PGN: a ".pgn" name, or
// a first token that is a tag "[" or a move number "1.").
InputKind detect_input_kind(bool pgn_extension, std::string_view head);

}  // namespace perftkit
