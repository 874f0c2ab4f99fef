// The compressors of this build: gzip and zstd are written when CMake found zlib and libzstd
// (cmake/compression.cmake defines PERFTKIT_HAVE_ZLIB and _ZSTD and builds their files).
#include "common/frame_encoder.hpp"

namespace perftkit {

bool can_compress(Compression kind) {
  switch (kind) {
    case Compression::NONE: return true;
#ifdef PERFTKIT_HAVE_ZSTD
    case Compression::ZSTD: return true;
#endif
#ifdef PERFTKIT_HAVE_ZLIB
    case Compression::GZIP: return true;
#endif
    default: return false;
  }
}

std::unique_ptr<FrameEncoder> make_frame_encoder(Compression kind) {
  switch (kind) {
#ifdef PERFTKIT_HAVE_ZLIB
    case Compression::GZIP: return make_gzip_encoder();
#endif
#ifdef PERFTKIT_HAVE_ZSTD
    case Compression::ZSTD: return make_zstd_encoder();
#endif
    default: return nullptr;
  }
}

}  // namespace perftkit
