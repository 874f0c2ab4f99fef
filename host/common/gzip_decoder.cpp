// gzip members (RFC 1952) through zlib's inflate, one member after another.
#include <zlib.h>

#include <stdexcept>
#include <string>

#include "common/frame_decoder.hpp"

namespace perftkit {
namespace {

class GzipDecoder final : public FrameDecoder {
 public:
  GzipDecoder() {
    // Window bits 15 + 16: the gzip wrapper only (no raw deflate, no zlib header).
    if (inflateInit2(&stream_, 15 + 16) != Z_OK) throw std::runtime_error("cannot start a gzip decoder");
  }
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;
  ~GzipDecoder() override { inflateEnd(&stream_); }

  DecodeStep step(const char* in, std::size_t in_size, char* out, std::size_t room) override {
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    stream_.avail_in = unsigned(in_size);
    stream_.next_out = reinterpret_cast<Bytef*>(out);
    stream_.avail_out = unsigned(room);
    const int rc = inflate(&stream_, Z_NO_FLUSH);
    DecodeStep step;
    step.used = in_size - stream_.avail_in;
    step.produced = room - stream_.avail_out;
    if (rc == Z_STREAM_END) {
      step.frame_end = true;
      inflateReset(&stream_);
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      step.error = stream_.msg ? stream_.msg : "inflate error " + std::to_string(rc);
    }
    return step;
  }

 private:
  z_stream stream_{};
};

}  // namespace

std::unique_ptr<FrameDecoder> make_gzip_decoder() { return std::make_unique<GzipDecoder>(); }

}  // namespace perftkit
