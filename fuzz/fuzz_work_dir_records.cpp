// The work dir's files on any bytes: the manifest, a shard result and a shard file decode
// to a value or name why not; what decodes encodes back to bytes that decode the same.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "common/checksum64.hpp"
#include "fuzz_check.hpp"
#include "workdir/manifest.hpp"
#include "workdir/shard_file.hpp"
#include "workdir/shard_result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (const auto manifest = perftkit::decode_manifest(bytes, error)) {
    const std::string again = perftkit::encode_manifest(*manifest);
    std::string second_error;
    const auto decoded = perftkit::decode_manifest(again, second_error);
    FUZZ_CHECK(decoded);
    FUZZ_CHECK(perftkit::encode_manifest(*decoded) == again);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  error.clear();
  if (const auto result = perftkit::decode_result(bytes, error)) {
    const std::string again = perftkit::encode_result(*result);
    std::string second_error;
    const auto decoded = perftkit::decode_result(again, second_error);
    FUZZ_CHECK(decoded);
    FUZZ_CHECK(perftkit::encode_result(*decoded) == again);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  // A shard as its header names it, with its checksum made right, so that mutations reach
  // the records (the checksum would reject nearly all of them first).
  error.clear();
  constexpr std::size_t HEADER_BYTES = 40, CHECKSUM_BYTES = 8;
  std::string shard(bytes);
  perftkit::ShardIdentity identity{0, 0, 0};
  if (shard.size() >= HEADER_BYTES + CHECKSUM_BYTES) {
    std::uint32_t id = 0, remaining = 0;
    std::memcpy(&id, shard.data() + 12, 4);
    std::memcpy(&remaining, shard.data() + 16, 4);
    std::memcpy(&identity.parameters_key, shard.data() + 24, 8);
    identity.id = id;
    identity.remaining_depth = int(remaining);
    const std::uint64_t sum = perftkit::checksum64(std::string_view(shard).substr(0, shard.size() - CHECKSUM_BYTES));
    std::memcpy(shard.data() + shard.size() - CHECKSUM_BYTES, &sum, CHECKSUM_BYTES);
  }
  if (const auto nodes = perftkit::decode_shard(shard, identity, error)) {
    FUZZ_CHECK(perftkit::encode_shard(identity, *nodes) == shard);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  return 0;
}
