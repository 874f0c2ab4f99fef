#include "classify/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/decompressing_reader.hpp"
#include "common/errors.hpp"

namespace perftkit {

namespace {

constexpr std::uint64_t BINARY_CHECK_BYTES = 4096;  // where a NUL byte makes the input binary

std::size_t read_fd(int fd, const std::string& path, char* p, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd, p, n);
    if (got >= 0) return std::size_t(got);
    if (errno != EINTR) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  }
}

}  // namespace

ClassifyInput::ClassifyInput(std::string path) : path_(std::move(path)) {
  name_ = path_ == "-" ? "stdin" : path_;
  fd_ = path_ == "-" ? STDIN_FILENO : ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError("cannot read '" + path_ + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw UsageError("cannot read '" + path_ + "': " + std::strerror(EISDIR));
    }
    if (S_ISREG(st.st_mode)) size_ = std::uint64_t(st.st_size);
  }
#ifdef POSIX_FADV_SEQUENTIAL
  if (size_) ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  // The magic bytes decide: read the first four (fewer only at the end of the input).
  head_.resize(4);
  std::size_t got = 0;
  while (got < head_.size()) {
    const std::size_t n = read_fd(fd_, path_, head_.data() + got, head_.size() - got);
    if (n == 0) break;
    got += n;
  }
  head_.resize(got);
  const Compression kind = detect_compression(head_);
  if (kind != Compression::NONE) {
    if (!can_decompress(kind))
      throw UsageError("cannot read '" + path_ + "': it is " + compression_name(kind) +
                       "-compressed, and this perftkit was built without " + compression_name(kind));
    compression_ = compression_name(kind);
    const int fd = fd_;
    const std::string file = path_;
    decompressor_ = std::make_unique<DecompressingReader>(
        kind, std::move(head_), [fd, file](char* p, std::size_t n) { return read_fd(fd, file, p, n); }, name_);
    head_.clear();
  }
}

ClassifyInput::ClassifyInput(ClassifyInput&& other) noexcept
    : path_(std::move(other.path_)),
      name_(std::move(other.name_)),
      fd_(other.fd_),
      size_(other.size_),
      head_(std::move(other.head_)),
      head_used_(other.head_used_),
      plain_bytes_read_(other.plain_bytes_read_),
      text_bytes_read_(other.text_bytes_read_),
      nul_seen_(other.nul_seen_),
      peeked_(std::move(other.peeked_)),
      peeked_used_(other.peeked_used_),
      compression_(other.compression_),
      decompressor_(std::move(other.decompressor_)) {
  other.fd_ = -1;
}

ClassifyInput::~ClassifyInput() {
  decompressor_.reset();  // its thread reads fd_: stop it first
  if (fd_ > STDIN_FILENO) ::close(fd_);
}

std::size_t ClassifyInput::read(char* p, std::size_t n) {
  std::size_t got = 0;
  if (peeked_used_ < peeked_.size()) {
    got = std::min(n, peeked_.size() - peeked_used_);
    std::memcpy(p, peeked_.data() + peeked_used_, got);
    peeked_used_ += got;
  } else {
    got = read_text(p, n);
  }
  check_nul(p, got);
  text_bytes_read_ += got;
  return got;
}

std::string_view ClassifyInput::peek(std::size_t n) {
  if (text_bytes_read_ > 0) throw std::logic_error("ClassifyInput::peek after read");
  while (peeked_.size() < n) {
    const std::size_t before = peeked_.size();
    peeked_.resize(n);
    const std::size_t got = read_text(peeked_.data() + before, n - before);
    peeked_.resize(before + got);
    if (got == 0) break;
  }
  return std::string_view(peeked_).substr(0, n);
}

std::size_t ClassifyInput::read_text(char* p, std::size_t n) {
  if (decompressor_) return decompressor_->read(p, n);
  if (head_used_ < head_.size()) {
    const std::size_t take = std::min(n, head_.size() - head_used_);
    std::memcpy(p, head_.data() + head_used_, take);
    head_used_ += take;
    plain_bytes_read_ += take;
    return take;
  }
  const std::size_t got = read_fd(fd_, path_, p, n);
  plain_bytes_read_ += got;
  return got;
}

// No text format that classify reads holds a NUL byte: one in the first BINARY_CHECK_BYTES
// of the text makes the input binary (an executable, an image, a compressed format it does
// not know), refused before its bytes can reach a row. Later, a NUL byte is damage in one
// line or game of a text file: noted (take_nul_seen), and that record becomes an invalid row.
void ClassifyInput::check_nul(const char* p, std::size_t n) {
  const void* nul = std::memchr(p, '\0', n);
  if (!nul) return;
  const std::uint64_t at = text_bytes_read_ + std::uint64_t(static_cast<const char*>(nul) - p);
  if (at >= BINARY_CHECK_BYTES) {
    nul_seen_ = true;
    return;
  }
  throw UsageError(name_ + ": binary data (a NUL byte at byte " + std::to_string(at) +
                   (decompressor_ ? " of the decompressed text" : "") +
                   "), not FEN, EPD, PGN, CSV, TSV or JSON Lines text");
}

std::uint64_t ClassifyInput::bytes_read() const {
  return decompressor_ ? decompressor_->compressed_bytes() : plain_bytes_read_;
}

std::optional<std::string> ClassifyInput::damage() const {
  return decompressor_ ? decompressor_->damage() : std::nullopt;
}

const char* ClassifyInput::compression() const { return compression_; }

namespace {

// The name in lower case without a compression suffix.
std::string inner_name(const std::string& path) {
  std::string name = path;
  for (char& ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  for (const char* suffix : {".zst", ".zstd", ".gz", ".bz2"}) {
    const std::string_view s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
      break;
    }
  }
  return name;
}

bool ends_with(const std::string& name, std::string_view suffix) {
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool ClassifyInput::has_pgn_extension() const { return ends_with(inner_name(path_), ".pgn"); }

InputKind ClassifyInput::table_kind_by_name() const {
  const std::string name = inner_name(path_);
  if (ends_with(name, ".csv")) return InputKind::CSV;
  if (ends_with(name, ".tsv")) return InputKind::TSV;
  if (ends_with(name, ".jsonl") || ends_with(name, ".ndjson")) return InputKind::JSONL;
  return InputKind::AUTO;
}

InputKind decide_input_kind(ClassifyInput& input, InputKind asked) {
  if (asked != InputKind::AUTO) return asked;
  const InputKind by_name = input.table_kind_by_name();
  if (by_name != InputKind::AUTO) return by_name;
  return detect_input_kind(input.has_pgn_extension(), input.peek(BINARY_CHECK_BYTES));
}

const char* input_kind_label(InputKind kind) {
  switch (kind) {
    case InputKind::LINES: return "FEN/EPD lines";
    case InputKind::PGN: return "PGN";
    case InputKind::CSV: return "CSV";
    case InputKind::TSV: return "TSV";
    case InputKind::JSONL: return "JSON Lines";
    case InputKind::AUTO: break;
  }
  return "text";
}

InputKind detect_input_kind(bool pgn_extension, std::string_view head) {
  if (pgn_extension) return InputKind::PGN;
  std::size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || (head[i] >= '\t' && head[i] <= '\r'))) ++i;
  if (head.substr(i, 3) == "\xEF\xBB\xBF") i += 3;  // a UTF-8 byte order mark
  if (i < head.size() && head[i] == '[') return InputKind::PGN;
  std::size_t digits = i;
  while (digits < head.size() && head[digits] >= '0' && head[digits] <= '9') ++digits;
  return digits > i && digits < head.size() && head[digits] == '.' ? InputKind::PGN : InputKind::LINES;
}

}  // namespace perftkit
