// Compressed output for code that writes to a file descriptor: the bytes written to fd() are
// compressed (gzip or zstd) by a thread of its own and written to the target descriptor, so
// classify's writer stays as it is and compression runs beside it.
#pragma once

#include <memory>
#include <string>

#include "common/frame_decoder.hpp"

namespace perftkit {

class CompressingPipe {
 public:
  // Starts the thread that compresses into target_fd (named target_name in errors). Throws
  // UsageError when this build cannot write kind, RuntimeFailure when the pipe cannot be made.
  CompressingPipe(Compression kind, int target_fd, std::string target_name);
  // Without finish(), on an error path: stops the thread and drops the end of the stream.
  ~CompressingPipe();
  CompressingPipe(const CompressingPipe&) = delete;
  CompressingPipe& operator=(const CompressingPipe&) = delete;

  // Where the plain bytes go.
  int fd() const;
  // Closes fd(), waits until every byte is compressed and the stream's end is written.
  // RuntimeFailure naming the target when a write failed (a full disk) or the library did.
  void finish();

 private:
  struct Worker;
  std::unique_ptr<Worker> worker_;
};

}  // namespace perftkit
