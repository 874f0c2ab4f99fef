#include "perft_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "frontier.hpp"
#include "perftkit/perft.hpp"
#include "uci.hpp"

#ifdef PERFTKIT_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace perftkit {
namespace {

// Subtree totals per root move, exact.
using RootTotals = std::vector<u128>;

// Frontier size worth merging towards: identical positions are counted once, so a deeper
// merged frontier saves work; the expansion itself costs about 0.1 us per child.
constexpr std::size_t MERGED_FRONTIER_TARGET = std::size_t(1) << 18;

// The frontier for splitting work: deep enough to give every thread many units (and, when
// merging, to find transpositions), while leaving at least `min_remaining` plies below it.
std::vector<FrontierNode> work_frontier(const PerftRequest& req, std::size_t target_units, int min_remaining,
                                        int& plies) {
  if (req.merge_transpositions) target_units = std::max(target_units, MERGED_FRONTIER_TARGET);
  plies = 1;
  std::vector<FrontierNode> frontier = expand_frontier(req.root, 1, req.divide, req.merge_transpositions);
  while (frontier.size() < target_units && req.depth - plies > min_remaining) {
    frontier = expand_level(frontier, req.divide, req.merge_transpositions);
    ++plies;
  }
  return frontier;
}

// CPU backend: worker threads pull frontier nodes one at a time and count their subtrees.
RootTotals perft_cpu(const PerftRequest& req, std::size_t root_move_count) {
  const unsigned threads = req.threads ? req.threads : hardware_threads();
  int plies = 0;
  const std::vector<FrontierNode> frontier = work_frontier(req, std::size_t(threads) * 64, 2, plies);
  const int remaining = req.depth - plies;

  std::atomic<std::size_t> next{0};
  std::vector<RootTotals> per_thread(threads, RootTotals(root_move_count, 0));
  auto worker = [&](unsigned id) {
    RootTotals& totals = per_thread[id];
    for (std::size_t i = next++; i < frontier.size(); i = next++) {
      const FrontierNode& node = frontier[i];
      totals[node.root_move] += u128(perft(node.position, remaining)) * node.multiplicity;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (std::thread& t : pool) t.join();

  RootTotals totals(root_move_count, 0);
  for (const RootTotals& t : per_thread)
    for (std::size_t m = 0; m < root_move_count; ++m) totals[m] += t[m];
  return totals;
}

#ifdef PERFTKIT_HAVE_CUDA
// CUDA backend (first path): the host expands a frontier, the device counts each node's
// subtree, and the host multiplies by multiplicities in 128 bits.
RootTotals perft_cuda(const PerftRequest& req, std::size_t root_move_count) {
  constexpr int DEVICE_DEPTH = 3;
  int plies = 0;
  const std::vector<FrontierNode> frontier =
      work_frontier(req, std::size_t(-1), std::min(DEVICE_DEPTH, req.depth - 1), plies);
  std::vector<Position> positions;
  positions.reserve(frontier.size());
  for (const FrontierNode& node : frontier) positions.push_back(node.position);
  const std::vector<std::uint64_t> counts = cuda::perft_positions(positions, req.depth - plies);
  RootTotals totals(root_move_count, 0);
  for (std::size_t i = 0; i < frontier.size(); ++i)
    totals[frontier[i].root_move] += u128(counts[i]) * frontier[i].multiplicity;
  return totals;
}
#endif

bool cuda_usable() {
#ifdef PERFTKIT_HAVE_CUDA
  return cuda::device_count() > 0;
#else
  return false;
#endif
}

}  // namespace

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

PerftReport run_perft(const PerftRequest& req) {
  if (req.depth < 0) throw std::invalid_argument("depth must be non-negative");
  const bool use_cuda = req.backend == Backend::CUDA || (req.backend == Backend::AUTO && cuda_usable());
  if (req.backend == Backend::CUDA && !cuda_usable())
    throw std::runtime_error("--backend cuda: no CUDA device is available (or perftkit was built without CUDA)");

  PerftReport report;
  report.backend = use_cuda ? "cuda" : "cpu";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Move> moves = root_moves(req.root);

  RootTotals totals;
  if (req.depth <= 1) {
    totals.assign(moves.size(), req.depth == 1 ? 1 : 0);
    report.nodes = req.depth == 1 ? moves.size() : 1;
  } else {
#ifdef PERFTKIT_HAVE_CUDA
    totals = use_cuda ? perft_cuda(req, moves.size()) : perft_cpu(req, moves.size());
#else
    totals = perft_cpu(req, moves.size());
#endif
    for (u128 t : totals) report.nodes += t;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (req.divide && req.depth >= 1) {
    for (std::size_t m = 0; m < moves.size(); ++m) report.divide.push_back({moves[m], to_uci(moves[m], req.chess960), totals[m]});
    std::sort(report.divide.begin(), report.divide.end(),
              [](const DivideEntry& a, const DivideEntry& b) { return a.uci < b.uci; });
  }
  return report;
}

}  // namespace perftkit
