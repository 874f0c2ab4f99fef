// A compressed stream held in memory, through DecompressingReader as classify's input feeds
// it (its first head_bytes as the head, the rest through the reader's read callback): the
// bytes the reader hands out, read in pieces of piece_bytes, and the damage it names.
#pragma once

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "common/decompressing_reader.hpp"

namespace perftkit::testing_support {

struct Decompressed {
  std::string bytes;
  std::optional<std::string> damage;
};

inline Decompressed decompress_in_memory(Compression kind, const std::string& stream, std::size_t head_bytes,
                                         DecompressionBuffers buffers, std::size_t piece_bytes) {
  std::size_t offset = std::min(head_bytes, stream.size());
  DecompressingReader reader(
      kind, stream.substr(0, offset),
      [&](char* p, std::size_t n) {
        const std::size_t take = std::min(n, stream.size() - offset);
        std::memcpy(p, stream.data() + offset, take);
        offset += take;
        return take;
      },
      "memory", buffers);
  Decompressed out;
  std::string piece(piece_bytes, '\0');
  while (const std::size_t got = reader.read(piece.data(), piece.size())) out.bytes.append(piece.data(), got);
  out.damage = reader.damage();
  return out;
}

}  // namespace perftkit::testing_support
