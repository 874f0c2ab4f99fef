// One compression library behind CompressingPipe: plain bytes in, one compressed stream out.
// Each library has a file of its own, built when CMake finds the library
// (cmake/compression.cmake); frame_encoders.cpp chooses among those built.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/frame_decoder.hpp"

namespace perftkit {

class FrameEncoder {
 public:
  virtual ~FrameEncoder() = default;
  // Compresses in, appending to out what the library gives out so far.
  virtual void add(std::string_view in, std::string& out) = 0;
  // Ends the stream (gzip's trailer, zstd's last block and checksum), appending to out.
  virtual void finish(std::string& out) = 0;
};

// Whether this build writes kind: gzip and zstd when their library was found (NONE: always).
bool can_compress(Compression kind);

// A fresh encoder for kind (gzip at zlib's default level 6, zstd at its default level 3 with
// a content checksum); nullptr for NONE and for what this build cannot write. Throws
// std::runtime_error when the library cannot start one.
std::unique_ptr<FrameEncoder> make_frame_encoder(Compression kind);

// Each library's encoder (defined only in builds with it: call make_frame_encoder).
std::unique_ptr<FrameEncoder> make_gzip_encoder();
std::unique_ptr<FrameEncoder> make_zstd_encoder();

}  // namespace perftkit
