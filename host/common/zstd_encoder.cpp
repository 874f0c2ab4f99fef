// One zstd frame through libzstd's streaming compressor, with a content checksum so that
// `zstd -t` and every reader can tell a damaged file.
#include <zstd.h>

#include <array>
#include <stdexcept>
#include <string>

#include "common/frame_encoder.hpp"

namespace perftkit {
namespace {

class ZstdEncoder final : public FrameEncoder {
 public:
  ZstdEncoder() : context_(ZSTD_createCCtx()) {
    if (context_ == nullptr || ZSTD_isError(ZSTD_CCtx_setParameter(context_, ZSTD_c_checksumFlag, 1)))
      throw std::runtime_error("cannot start a zstd encoder");
  }
  ZstdEncoder(const ZstdEncoder&) = delete;
  ZstdEncoder& operator=(const ZstdEncoder&) = delete;
  ~ZstdEncoder() override { ZSTD_freeCCtx(context_); }

  void add(std::string_view in, std::string& out) override { run(in, ZSTD_e_continue, out); }
  void finish(std::string& out) override { run({}, ZSTD_e_end, out); }

 private:
  // Compresses all of in; with ZSTD_e_end, until the frame is closed.
  void run(std::string_view in, ZSTD_EndDirective directive, std::string& out) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    std::array<char, 1 << 17> chunk;
    for (;;) {
      ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
      const std::size_t left = ZSTD_compressStream2(context_, &output, &input, directive);
      if (ZSTD_isError(left)) throw std::runtime_error(std::string("zstd encoder: ") + ZSTD_getErrorName(left));
      out.append(chunk.data(), output.pos);
      if (directive == ZSTD_e_end ? left == 0 : input.pos == input.size) return;
    }
  }

  ZSTD_CCtx* context_;
};

}  // namespace

std::unique_ptr<FrameEncoder> make_zstd_encoder() { return std::make_unique<ZstdEncoder>(); }

}  // namespace perftkit
