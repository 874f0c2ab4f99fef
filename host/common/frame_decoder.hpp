// One decompression library behind DecompressingReader: compressed bytes in, decompressed
// bytes out, frame after frame. Each library has a file of its own, built when CMake finds
// the library (cmake/compression.cmake); frame_decoders.cpp chooses among those built.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace perftkit {

enum class Compression { NONE, GZIP, BZIP2, ZSTD };

// What one call of FrameDecoder::step did.
struct DecodeStep {
  std::size_t used = 0;      // compressed bytes consumed
  std::size_t produced = 0;  // decompressed bytes written
  bool frame_end = false;    // a frame ended here; the decoder is ready for the next one
  std::string error;         // the library's reason, when the stream is corrupt
};

class FrameDecoder {
 public:
  virtual ~FrameDecoder() = default;
  // Decompresses from in (in_size bytes) into out (room bytes), as far as either allows.
  virtual DecodeStep step(const char* in, std::size_t in_size, char* out, std::size_t room) = 0;
};

// Whether this build can decompress kind (NONE: always).
bool can_decompress(Compression kind);

// A fresh decoder for kind; nullptr for NONE, for a library this build lacks, and for zstd,
// which DecompressingReader decodes in place (zstd_decoder.cpp). Throws std::runtime_error
// when the library cannot start one.
std::unique_ptr<FrameDecoder> make_frame_decoder(Compression kind);

// Each library's decoder (defined only in builds with it: call make_frame_decoder).
std::unique_ptr<FrameDecoder> make_gzip_decoder();
std::unique_ptr<FrameDecoder> make_bzip2_decoder();

}  // namespace perftkit
