// The perft suite reader (EPD ;D lines, id/epd/perft blocks) on any text: it never fails as
// a whole, each line is a case or a named error, and every case's FEN is one the FEN or EPD
// reader has an answer for.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "notation/fen.hpp"
#include "notation/suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const perftkit::Suite suite = perftkit::parse_suite(text, "fuzz.epd");
  for (const perftkit::SuiteError& e : suite.errors) FUZZ_CHECK(!e.reason.empty());
  for (const perftkit::SuiteCase& c : suite.cases) {
    const perftkit::FenResult parsed = c.from_epd_line ? perftkit::parse_epd(c.fen) : perftkit::parse_fen(c.fen);
    FUZZ_CHECK(parsed || !parsed.error.empty());
    for (const perftkit::ExpectedCount& e : c.expected) FUZZ_CHECK(e.depth >= 0);
  }
  return 0;
}
