// Runs one perft on a backend and reports exact totals, divide and timing.
#pragma once

#include <string>
#include <vector>

#include "perftkit/position.hpp"
#include "uint128.hpp"

namespace perftkit {

enum class Backend { AUTO, CPU, CUDA };

struct PerftRequest {
  Position root{};
  int depth = 1;
  bool divide = false;
  unsigned threads = 0;  // 0: every hardware thread
  Backend backend = Backend::AUTO;
  bool chess960 = false;            // write castling moves as king-takes-rook
  bool merge_transpositions = true;  // merge identical frontier positions (off: pure move-generation speed)
};

struct DivideEntry {
  Move move;
  std::string uci;
  u128 nodes;
};

struct PerftReport {
  u128 nodes = 0;
  std::vector<DivideEntry> divide;  // sorted by UCI text when requested
  double seconds = 0;
  std::string backend;  // "cpu" or "cuda"
};

// Exact perft of request.root. Throws std::runtime_error when the CUDA backend is asked
// for and no device can run it; AUTO picks CUDA when a device is present.
PerftReport run_perft(const PerftRequest& request);

// Number of hardware threads (at least 1).
unsigned hardware_threads();

}  // namespace perftkit
