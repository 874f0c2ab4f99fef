#include "common/durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <system_error>

namespace perftkit {
namespace {

[[noreturn]] void throw_errno(const char* call, const std::string& path) {
  throw std::system_error(errno, std::generic_category(), std::string(call) + " " + path);
}

// Closes the descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  // Closes now, reporting the error a deferred write may only show here.
  void close_checked(const std::string& path) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_errno("close", path);
  }

 private:
  int fd_;
};

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw_errno("write", path);
    }
    bytes.remove_prefix(std::size_t(written));
  }
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A rename is durable once the directory holding the new name is on disk.
void sync_directory(const std::string& directory) {
  FileDescriptor fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) throw_errno("open", directory);
  if (::fsync(fd.get()) != 0 && errno != EINVAL) throw_errno("fsync", directory);
}

std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned long> serial{0};
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return directory_of(path) + "/." + name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
}

}  // namespace

void write_file_durably(const std::string& path, std::string_view bytes) {
  const std::string temporary = temporary_name(path);
  FileDescriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw_errno("open", temporary);
  try {
    write_all(fd.get(), bytes, temporary);
    if (::fsync(fd.get()) != 0) throw_errno("fsync", temporary);
    fd.close_checked(temporary);
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw_errno("rename", temporary);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  sync_directory(directory_of(path));
}

bool create_file_exclusively(const std::string& path, std::string_view bytes) {
  // The bytes go into a temporary file first, which link() then puts at path only if nothing
  // is there: path never exists empty or half-written, even when this process is killed.
  const std::string temporary = temporary_name(path);
  {
    FileDescriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (fd.get() < 0) throw_errno("open", temporary);
    try {
      write_all(fd.get(), bytes, temporary);
      fd.close_checked(temporary);
    } catch (...) {
      ::unlink(temporary.c_str());
      throw;
    }
  }
  const bool created = ::link(temporary.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  ::unlink(temporary.c_str());
  if (!created && link_errno != EEXIST) {
    errno = link_errno;
    throw_errno("link", path);
  }
  return created;
}

std::optional<std::string> read_file(const std::string& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw_errno("open", path);
  }
  std::string content;
  struct stat info {};
  if (::fstat(fd.get(), &info) == 0 && info.st_size > 0) content.reserve(std::size_t(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_errno("read", path);
    }
    if (got == 0) break;
    content.append(buffer, std::size_t(got));
  }
  return content;
}

bool is_temporary_file_name(std::string_view name) {
  return name.starts_with('.') && name.find(".tmp.") != std::string_view::npos;
}

}  // namespace perftkit
