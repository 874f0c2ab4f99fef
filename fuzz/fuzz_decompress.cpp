// The compressed-stream reader on any bytes after a zstd, gzip or bzip2 magic: it yields
// the bytes that decompress cleanly, then stops, naming the damage if there is any; it never
// hangs or reads out of bounds.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "common/decompressing_reader.hpp"
#include "fuzz_check.hpp"

namespace {

// Small buffers cross chunk and input boundaries often, and bound the work of a decompression
// bomb: the decoder runs at most chunks * chunk_bytes ahead of the reader that stops.
constexpr perftkit::DecompressionBuffers SMALL_BUFFERS{.chunk_bytes = 1 << 14, .chunks = 2, .input_bytes = 1 << 10};
constexpr std::size_t ENOUGH_BYTES = std::size_t(1) << 18;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const perftkit::Compression kind = perftkit::detect_compression(bytes.substr(0, 4));
  if (kind == perftkit::Compression::NONE || !perftkit::can_decompress(kind)) return 0;
  const std::size_t head_size = std::min<std::size_t>(4, bytes.size());
  std::size_t offset = head_size;
  perftkit::DecompressingReader reader(
      kind, std::string(bytes.substr(0, head_size)),
      [&](char* p, std::size_t n) {
        const std::size_t take = std::min(n, bytes.size() - offset);
        std::memcpy(p, bytes.data() + offset, take);
        offset += take;
        return take;
      },
      "fuzz", SMALL_BUFFERS);
  char buffer[1 << 12];
  std::size_t total = 0;
  while (const std::size_t got = reader.read(buffer, sizeof buffer)) {
    total += got;
    if (total > ENOUGH_BYTES) break;  // a bomb: enough (the decoder must stop when its reader does)
  }
  if (const auto damage = reader.damage()) FUZZ_CHECK(damage->find("fuzz") != std::string::npos);
  return 0;
}
