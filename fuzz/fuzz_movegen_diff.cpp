// Move generation against an independent generator: on every position the FEN and EPD
// readers accept, perftkit's perft 1-3 must equal that of the test-only mailbox oracle
// (tests/oracle/), and so must every CPU kernel level the machine runs (the AVX-512 counter
// among them), plain and hashed. A mismatch prints the FEN and both move lists, then aborts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "oracle/mailbox_board.hpp"
#include "perft/cpu_kernels.hpp"
#include "perftkit/perft.hpp"

namespace {

// Depth 3 is compared while the oracle's depth-2 tree stays this small (a FEN full of queens
// has hundreds of moves a ply, and the oracle is slow by design).
constexpr std::uint64_t MAX_DEPTH2_FOR_DEPTH3 = 1000;

std::vector<std::string> sorted(std::vector<std::string> moves) {
  std::sort(moves.begin(), moves.end());
  return moves;
}

// The moves of both generators at a position, in UCI with castling as king-takes-rook.
std::vector<std::string> perftkit_moves(const perftkit::Position& pos) {
  std::vector<std::string> moves;
  perftkit::for_each_legal_move(
      pos, [&](const perftkit::Position&, perftkit::Move m) { moves.push_back(perftkit::to_uci(m, true)); });
  return sorted(moves);
}
std::vector<std::string> oracle_moves(const oracle::Board& board) {
  std::vector<std::string> moves;
  for (const oracle::Child& child : oracle::legal_children(board)) moves.push_back(child.uci);
  return sorted(moves);
}

// The child, reached by the same move in both generators, whose subtree counts differ;
// false when the move lists themselves differ here.
bool descend(perftkit::Position& pos, oracle::Board& board, int depth) {
  if (perftkit_moves(pos) != oracle_moves(board)) return false;
  bool found = false;
  perftkit::for_each_legal_move(pos, [&](const perftkit::Position& child, perftkit::Move m) {
    if (found) return;
    const std::string uci = perftkit::to_uci(m, true);
    for (const oracle::Child& theirs : oracle::legal_children(board)) {
      if (theirs.uci != uci || perftkit::perft(child, depth - 1) == oracle::perft(theirs.board, depth - 1)) continue;
      pos = child;
      board = theirs.board;
      found = true;
      return;
    }
  });
  return found;
}

// Walks down to the first position where the two move lists differ, prints both, aborts.
[[noreturn]] void report_mismatch(perftkit::Position pos, oracle::Board board, int depth) {
  const std::string root = perftkit::to_fen(pos);
  while (depth > 1 && descend(pos, board, depth)) --depth;
  std::string listed =
      "movegen mismatch below " + root + "\nfirst differing position: " + perftkit::to_fen(pos) + "\nperftkit:";
  for (const std::string& m : perftkit_moves(pos)) listed += " " + m;
  listed += "\noracle:  ";
  for (const std::string& m : oracle_moves(board)) listed += " " + m;
  std::fprintf(stderr, "%s\n", listed.c_str());
  std::abort();
}

// Every CPU kernel level this CPU runs, plain and hashed, against the counts the oracle
// gave: the AVX-512 level's eight-lane counter runs in its two-ply leaves, whatever the flags
// of this build (a fuzz build is portable; the levels are chosen at run time).
void check_kernel_levels(const perftkit::Position& pos, const std::vector<std::uint64_t>& counts) {
  const perftkit::KeySet keys(1);
  for (const perftkit::CpuKernelLevel& level : perftkit::cpu_kernel_levels()) {
    if (!level.supported) continue;
    perftkit::PerftTable table(std::size_t(1) << 16);
    for (std::size_t depth = 1; depth < counts.size(); ++depth) {
      FUZZ_CHECK(level.kernels->perft(pos, int(depth)) == counts[depth]);
      FUZZ_CHECK(level.kernels->perft_hashed(pos, int(depth), table, keys) == counts[depth]);
    }
  }
}

void compare(const perftkit::FenResult& parsed) {
  if (!parsed) return;
  const perftkit::Position& pos = parsed->position;
  const std::string fen = perftkit::to_fen(pos);
  const std::optional<oracle::Board> board = oracle::board_from_fen(fen);
  FUZZ_CHECK(board.has_value());
  std::vector<std::uint64_t> counts = {1};  // the oracle's perft by depth
  for (int depth = 1; depth <= 3; ++depth) {
    const std::uint64_t expected = oracle::perft(*board, depth);
    const std::uint64_t counted = perftkit::perft(pos, depth);
    if (counted != expected) report_mismatch(pos, *board, depth);
    counts.push_back(expected);
    if (depth == 2 && expected > MAX_DEPTH2_FOR_DEPTH3) break;
  }
  check_kernel_levels(pos, counts);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const perftkit::FenResult fen = perftkit::parse_fen(text);
  const perftkit::FenResult epd = perftkit::parse_epd(text);
  compare(fen);
  if (epd && !(fen && fen->position == epd->position)) compare(epd);  // the same board once
  return 0;
}
