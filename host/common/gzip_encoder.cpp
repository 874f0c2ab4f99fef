// One gzip member (RFC 1952) through zlib's deflate.
#include <zlib.h>

#include <array>
#include <stdexcept>
#include <string>

#include "common/frame_encoder.hpp"

namespace perftkit {
namespace {

class GzipEncoder final : public FrameEncoder {
 public:
  GzipEncoder() {
    // Window bits 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&stream_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw std::runtime_error("cannot start a gzip encoder");
  }
  GzipEncoder(const GzipEncoder&) = delete;
  GzipEncoder& operator=(const GzipEncoder&) = delete;
  ~GzipEncoder() override { deflateEnd(&stream_); }

  void add(std::string_view in, std::string& out) override { run(in, Z_NO_FLUSH, out); }
  void finish(std::string& out) override { run({}, Z_FINISH, out); }

 private:
  // Deflates all of in; with Z_FINISH, until the stream's end is written.
  void run(std::string_view in, int flush, std::string& out) {
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    stream_.avail_in = uInt(in.size());
    std::array<char, 1 << 16> chunk;
    for (;;) {
      stream_.next_out = reinterpret_cast<Bytef*>(chunk.data());
      stream_.avail_out = uInt(chunk.size());
      const int rc = deflate(&stream_, flush);
      if (rc == Z_STREAM_ERROR) throw std::runtime_error("gzip encoder failed");
      out.append(chunk.data(), chunk.size() - stream_.avail_out);
      if (flush == Z_FINISH ? rc == Z_STREAM_END : stream_.avail_in == 0 && stream_.avail_out != 0) return;
    }
  }

  z_stream stream_{};
};

}  // namespace

std::unique_ptr<FrameEncoder> make_gzip_encoder() { return std::make_unique<GzipEncoder>(); }

}  // namespace perftkit
