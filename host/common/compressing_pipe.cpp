#include "common/compressing_pipe.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "common/frame_encoder.hpp"
#include "common/output_file.hpp"

namespace perftkit {

struct CompressingPipe::Worker {
  int read_fd = -1;
  int write_fd = -1;
  int target_fd;
  std::string target_name;
  std::unique_ptr<FrameEncoder> encoder;
  std::string error;  // the first failure; the thread then drains the pipe so the writer never blocks
  std::thread thread;

  void write_out(std::string& compressed) {
    if (error.empty() && !compressed.empty() && !write_fully(target_fd, compressed))
      error = std::string("cannot write '") + target_name + "': " + std::strerror(errno);
    compressed.clear();
  }

  void run() {
    std::vector<char> plain(std::size_t(1) << 20);
    std::string compressed;
    for (;;) {
      const ssize_t got = ::read(read_fd, plain.data(), plain.size());
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        if (error.empty()) error = std::string("cannot read the rows to compress: ") + std::strerror(errno);
        return;
      }
      if (got == 0) break;
      if (!error.empty()) continue;
      try {
        encoder->add({plain.data(), std::size_t(got)}, compressed);
      } catch (const std::exception& e) {
        error = e.what();
      }
      write_out(compressed);
    }
    if (!error.empty()) return;
    try {
      encoder->finish(compressed);
    } catch (const std::exception& e) {
      error = e.what();
    }
    write_out(compressed);
  }
};

CompressingPipe::CompressingPipe(Compression kind, int target_fd, std::string target_name)
    : worker_(std::make_unique<Worker>()) {
  if (!can_compress(kind) || kind == Compression::NONE)
    throw UsageError("-o " + target_name + ": this build cannot write that compression (its library was not found)");
  worker_->target_fd = target_fd;
  worker_->target_name = std::move(target_name);
  worker_->encoder = make_frame_encoder(kind);
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw RuntimeFailure(std::string("cannot make a pipe: ") + std::strerror(errno));
  worker_->read_fd = ends[0];
  worker_->write_fd = ends[1];
  worker_->thread = std::thread([worker = worker_.get()] { worker->run(); });
}

CompressingPipe::~CompressingPipe() {
  if (!worker_->thread.joinable()) return;
  ::close(worker_->write_fd);
  worker_->thread.join();
  ::close(worker_->read_fd);
}

int CompressingPipe::fd() const { return worker_->write_fd; }

void CompressingPipe::finish() {
  ::close(worker_->write_fd);
  worker_->thread.join();
  ::close(worker_->read_fd);
  if (!worker_->error.empty()) throw RuntimeFailure(worker_->error);
}

}  // namespace perftkit
