// zstd streams (RFC 8878) through libzstd's streaming decoder, one frame after another.
#include <zstd.h>

#include <stdexcept>

#include "common/frame_decoder.hpp"

namespace perftkit {
namespace {

class ZstdDecoder final : public FrameDecoder {
 public:
  ZstdDecoder() : stream_(ZSTD_createDStream()) {
    if (!stream_) throw std::runtime_error("cannot start a zstd decoder");
  }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;
  ~ZstdDecoder() override { ZSTD_freeDStream(stream_); }

  DecodeStep step(const char* in, std::size_t in_size, char* out, std::size_t room) override {
    ZSTD_inBuffer source{in, in_size, 0};
    ZSTD_outBuffer sink{out, room, 0};
    const std::size_t rc = ZSTD_decompressStream(stream_, &sink, &source);
    DecodeStep step;
    step.used = source.pos;
    step.produced = sink.pos;
    if (ZSTD_isError(rc)) step.error = ZSTD_getErrorName(rc);
    else step.frame_end = rc == 0;  // (0: a frame is complete; the stream starts the next)
    return step;
  }

 private:
  ZSTD_DStream* stream_;
};

}  // namespace

std::unique_ptr<FrameDecoder> make_zstd_decoder() { return std::make_unique<ZstdDecoder>(); }

}  // namespace perftkit
