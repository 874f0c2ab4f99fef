// An output file that is whole or absent: a command's rows go to a partial file beside the
// target (".NAME.partial.PID"), renamed over it by commit(). A command that fails, or is
// interrupted (interrupt.hpp), removes the partial file and leaves the target as it was, so
// a reader never finds a row cut in the middle. Standard output ("-" or no path) and targets
// that are not regular files (/dev/stdout, /dev/full, a named pipe) are written in place.
#pragma once

#include <string>
#include <string_view>

namespace perftkit {

// Writes all of bytes to fd, resuming after signals and short writes; false (errno says why)
// when the system refuses.
bool write_fully(int fd, std::string_view bytes);

class OutputFile {
 public:
  // Opens the partial file; UsageError when its folder cannot be written.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  int fd() const { return fd_; }
  // All of bytes, or RuntimeFailure naming the target and the error (a full disk).
  void write(std::string_view bytes) const;
  bool is_stdout() const { return path_.empty() || path_ == "-"; }

  // Closes and renames the partial file over the target; RuntimeFailure naming the error
  // (a full disk shows here at the latest).
  void commit();

 private:
  std::string path_;
  std::string partial_;  // empty: written in place
  int fd_;
  bool committed_ = false;
};

}  // namespace perftkit
