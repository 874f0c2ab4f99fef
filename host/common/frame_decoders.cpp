// The decompressors of this build: a library's format is decoded when CMake found the
// library (cmake/compression.cmake defines PERFTKIT_HAVE_ZSTD, _ZLIB and _BZIP2 and builds
// its file); the others are refused by name.
#include "common/frame_decoder.hpp"

namespace perftkit {

bool can_decompress(Compression kind) {
  switch (kind) {
    case Compression::NONE: return true;
#ifdef PERFTKIT_HAVE_ZSTD
    case Compression::ZSTD: return true;
#endif
#ifdef PERFTKIT_HAVE_ZLIB
    case Compression::GZIP: return true;
#endif
#ifdef PERFTKIT_HAVE_BZIP2
    case Compression::BZIP2: return true;
#endif
    default: return false;
  }
}

std::unique_ptr<FrameDecoder> make_frame_decoder(Compression kind) {
  switch (kind) {
#ifdef PERFTKIT_HAVE_ZLIB
    case Compression::GZIP: return make_gzip_decoder();
#endif
#ifdef PERFTKIT_HAVE_BZIP2
    case Compression::BZIP2: return make_bzip2_decoder();
#endif
    default: return nullptr;
  }
}

}  // namespace perftkit
