// perftkit's UCI loop (`perftkit uci`) on any lines: bad input is answered with an
// `info string error:` line and never ends the session; only `quit` does. Lines that would
// start a deep search or a large table (`go` and `setoption` with a number above 3) are left
// out, and so is every `go` line after the fourth of an input: they are slow, not wrong. The
// session starts on one thread without a table (UCI's own Hash default, 16 MB, is allocated
// and cleared by every `go`), which an input may change with small values.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/uci_session.hpp"
#include "fuzz_check.hpp"

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// A `go` or `setoption` line that names a number above 3 anywhere (leading zeros and signs
// do not hide it).
bool asks_for_much(std::string_view line) {
  const std::string text = lower(line);
  if (text.find("go") == std::string::npos && text.find("setoption") == std::string::npos) return false;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && text[j] == '0') ++j;
    std::size_t end = j;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end - j > 1 || (end > j && text[j] > '3')) return true;
    i = end;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  perftkit::UciSession session(out);
  session.handle("setoption name Threads value 1");
  session.handle("setoption name Hash value 0");
  constexpr int MAX_GO_LINES = 4;
  int go_lines = 0;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t eol = std::min(text.find('\n', begin), text.size());
    const std::string_view line = text.substr(begin, eol - begin);
    begin = eol + 1;
    if (asks_for_much(line)) continue;
    if (lower(line).find("go") != std::string::npos && ++go_lines > MAX_GO_LINES) continue;
    const bool more = session.handle(line);
    if (!more) FUZZ_CHECK(lower(line).find("quit") != std::string::npos);
    if (!more) break;
  }
  return 0;
}
