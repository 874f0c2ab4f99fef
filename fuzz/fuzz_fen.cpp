// The FEN and EPD readers on any bytes: a rejection names its reason; an accepted position
// writes back to a FEN that reads as the same position, and its legal moves can be generated.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "notation/fen.hpp"
#include "perftkit/perft.hpp"

namespace {

void check(const perftkit::FenResult& parsed) {
  if (!parsed) {
    FUZZ_CHECK(!parsed.error.empty());
    return;
  }
  const std::string fen = perftkit::to_fen(parsed->position);
  const perftkit::FenResult again = perftkit::parse_fen(fen);
  FUZZ_CHECK(again);
  FUZZ_CHECK(perftkit::to_fen(again->position) == fen);
  FUZZ_CHECK(perftkit::perft(parsed->position, 1) == perftkit::perft(again->position, 1));
  (void)perftkit::perft(parsed->position, 2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check(perftkit::parse_fen(text));
  check(perftkit::parse_epd(text));
  return 0;
}
