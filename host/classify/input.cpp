#include "classify/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/errors.hpp"

namespace perftkit {

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
}

ClassifyInput::ClassifyInput(ClassifyInput&& other) noexcept
    : path_(std::move(other.path_)), name_(std::move(other.name_)), fd_(other.fd_), size_(other.size_) {
  other.fd_ = -1;
}

ClassifyInput::~ClassifyInput() {
  if (fd_ > STDIN_FILENO) ::close(fd_);
}

std::size_t ClassifyInput::read(char* p, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, p, n);
    if (got >= 0) return std::size_t(got);
    if (errno != EINTR) throw std::runtime_error("cannot read '" + path_ + "': " + std::strerror(errno));
  }
}

bool ClassifyInput::has_pgn_extension() const {
  if (path_.size() < 4) return false;
  std::string ext = path_.substr(path_.size() - 4);
  for (char& ch : ext) ch = char(ch | 0x20);
  return ext == ".pgn";
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
