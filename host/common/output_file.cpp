#include "common/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/errors.hpp"
#include "common/interrupt.hpp"

namespace perftkit {
namespace {

std::string partial_path_for(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return folder + "." + name + ".partial." + std::to_string(::getpid());
}

bool is_special_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
}

std::string failure(const std::string& path) { return "cannot write '" + path + "': " + std::strerror(errno); }

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)), fd_(STDOUT_FILENO) {
  if (is_stdout()) return;
  if (is_special_file(path_)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) throw UsageError(failure(path_));
    return;
  }
  partial_ = partial_path_for(path_);
  // Armed before it exists: an interrupt between the two would otherwise leave it behind.
  remove_on_interrupt(partial_);
  fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const std::string message = failure(path_);
    forget_on_interrupt(partial_);
    throw UsageError(message);
  }
}

OutputFile::~OutputFile() {
  if (committed_ || is_stdout()) return;
  ::close(fd_);
  if (partial_.empty()) return;
  ::unlink(partial_.c_str());
  forget_on_interrupt(partial_);
}

bool write_fully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(std::size_t(written));
  }
  return true;
}

void OutputFile::write(std::string_view bytes) const {
  if (!write_fully(fd_, bytes)) throw RuntimeFailure(failure(is_stdout() ? "standard output" : path_));
}

void OutputFile::commit() {
  if (is_stdout() || committed_) return;
  committed_ = true;
  const int close_result = ::close(fd_);
  if (close_result != 0 || (!partial_.empty() && ::rename(partial_.c_str(), path_.c_str()) != 0)) {
    const std::string message = failure(path_);
    if (!partial_.empty()) {
      ::unlink(partial_.c_str());
      forget_on_interrupt(partial_);
    }
    throw RuntimeFailure(message);
  }
  if (!partial_.empty()) forget_on_interrupt(partial_);
}

}  // namespace perftkit
