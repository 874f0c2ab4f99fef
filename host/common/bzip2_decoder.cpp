// bzip2 streams through libbz2, one stream after another (as pbzip2 and concatenation write).
#include <bzlib.h>

#include <stdexcept>
#include <string>

#include "common/frame_decoder.hpp"

namespace perftkit {
namespace {

class Bzip2Decoder final : public FrameDecoder {
 public:
  Bzip2Decoder() { start(); }
  Bzip2Decoder(const Bzip2Decoder&) = delete;
  Bzip2Decoder& operator=(const Bzip2Decoder&) = delete;
  ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&stream_); }

  DecodeStep step(const char* in, std::size_t in_size, char* out, std::size_t room) override {
    stream_.next_in = const_cast<char*>(in);
    stream_.avail_in = unsigned(in_size);
    stream_.next_out = out;
    stream_.avail_out = unsigned(room);
    const int rc = BZ2_bzDecompress(&stream_);
    DecodeStep step;
    step.used = in_size - stream_.avail_in;
    step.produced = room - stream_.avail_out;
    if (rc == BZ_STREAM_END) {
      step.frame_end = true;
      BZ2_bzDecompressEnd(&stream_);  // libbz2 has no reset: a new stream starts afresh
      start();
    } else if (rc != BZ_OK) {
      step.error = "bzip2 error " + std::to_string(rc);
    }
    return step;
  }

 private:
  void start() {
    stream_ = bz_stream{};
    if (BZ2_bzDecompressInit(&stream_, 0, 0) != BZ_OK) throw std::runtime_error("cannot start a bzip2 decoder");
  }

  bz_stream stream_{};
};

}  // namespace

std::unique_ptr<FrameDecoder> make_bzip2_decoder() { return std::make_unique<Bzip2Decoder>(); }

}  // namespace perftkit
