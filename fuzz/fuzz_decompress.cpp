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
      "fuzz");
  char buffer[1 << 14];
  std::size_t total = 0;
  while (const std::size_t got = reader.read(buffer, sizeof buffer)) {
    total += got;
    if (total > (std::size_t(4) << 20)) break;  // a bomb: enough (the reader must stop when its reader does)
  }
  if (const auto damage = reader.damage()) FUZZ_CHECK(damage->find("fuzz") != std::string::npos);
  return 0;
}
