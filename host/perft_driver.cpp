#include "perft_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "frontier.hpp"
#include "hashed_perft.hpp"
#ifdef PERFTKIT_HAVE_PIPELINE
#include "pipeline.hpp"
#endif
#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
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

// Deepest subtree one work unit counts in 64 bits: no position has more than 218 legal
// moves, and 218^8 < 2^64, so no unit can overflow.
constexpr int MAX_UNIT_DEPTH = 8;

// The frontier for splitting work: deep enough to give every thread many units (and, when
// merging, to find transpositions), while leaving at least `min_remaining` plies below it.
std::vector<FrontierNode> work_frontier(const PerftRequest& req, std::size_t target_units, int min_remaining,
                                        int& plies) {
  // With a transposition table the subtrees merge below the frontier: keep it shallow.
  if (req.merge_transpositions && !req.hash_bytes) target_units = std::max(target_units, MERGED_FRONTIER_TARGET);
  plies = 1;
  std::vector<FrontierNode> frontier = expand_frontier(req.root, 1, req.divide, req.merge_transpositions);
  while ((frontier.size() < target_units || req.depth - plies > MAX_UNIT_DEPTH) && req.depth - plies > min_remaining) {
    frontier = expand_level(frontier, req.divide, req.merge_transpositions);
    ++plies;
  }
  return frontier;
}

// CPU backend: worker threads pull frontier nodes one at a time; count_unit(node, totals)
// adds a node's subtree, times its multiplicity, to totals[node.root_move]. Per-thread
// totals are summed at the end, so every total is exact whatever the thread count.
template <typename Total, typename CountUnit>
std::vector<Total> count_frontier(const std::vector<FrontierNode>& frontier, unsigned threads,
                                  std::size_t root_move_count, CountUnit count_unit) {
  std::atomic<std::size_t> next{0};
  std::vector<std::vector<Total>> per_thread(threads, std::vector<Total>(root_move_count, Total{}));
  auto worker = [&](unsigned id) {
    std::vector<Total>& totals = per_thread[id];
    for (std::size_t i = next++; i < frontier.size(); i = next++) count_unit(frontier[i], totals);
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < threads; ++id) pool.emplace_back(worker, id);
  worker(0);
  for (std::thread& t : pool) t.join();

  std::vector<Total> totals(root_move_count, Total{});
  for (const std::vector<Total>& t : per_thread)
    for (std::size_t m = 0; m < root_move_count; ++m) totals[m] += t[m];
  return totals;
}

unsigned thread_count(const PerftRequest& req) { return req.threads ? req.threads : hardware_threads(); }

RootTotals perft_cpu(const PerftRequest& req, std::size_t root_move_count) {
  const unsigned threads = thread_count(req);
  int plies = 0;
  const std::vector<FrontierNode> frontier = work_frontier(req, std::size_t(threads) * 64, 2, plies);
  const int remaining = req.depth - plies;
  if (req.hash_bytes && remaining > 1) {
    PerftTable table(req.hash_bytes);
    const KeySet keys(req.hash_seed);
    return count_frontier<u128>(frontier, threads, root_move_count,
                                [&](const FrontierNode& node, RootTotals& totals) {
                                  totals[node.root_move] +=
                                      u128(perft_hashed(node.position, remaining, table, keys)) * node.multiplicity;
                                });
  }
  return count_frontier<u128>(frontier, threads, root_move_count,
                              [remaining](const FrontierNode& node, RootTotals& totals) {
                                totals[node.root_move] += u128(perft(node.position, remaining)) * node.multiplicity;
                              });
}

// Statistics on the CPU (depth >= 2): each unit counts in 64 bits, totals are 128-bit.
std::vector<StatsTotals> perft_stats_cpu(const PerftRequest& req, std::size_t root_move_count) {
  const unsigned threads = thread_count(req);
  int plies = 0;
  const std::vector<FrontierNode> frontier = work_frontier(req, std::size_t(threads) * 64, 2, plies);
  const int remaining = req.depth - plies;
  return count_frontier<StatsTotals>(frontier, threads, root_move_count,
                                     [remaining](const FrontierNode& node, std::vector<StatsTotals>& totals) {
                                       LeafStats unit{};
                                       perft_stats(node.position, remaining, unit);
                                       totals[node.root_move].add(unit, node.multiplicity);
                                     });
}

// Statistics per root move: at depth 1 each root move is its own leaf.
std::vector<StatsTotals> root_move_stats(const PerftRequest& req, const std::vector<Move>& moves) {
  std::vector<StatsTotals> totals(moves.size());
  if (req.depth == 1) {
    for (std::size_t m = 0; m < moves.size(); ++m) totals[m].add(move_stats(req.root, moves[m]), 1);
    return totals;
  }
  return perft_stats_cpu(req, moves.size());
}

#ifdef PERFTKIT_HAVE_PIPELINE
PipelineOptions pipeline_options(const PerftRequest& req, bool on_gpu) {
  PipelineOptions options;
  options.system = on_gpu ? PipelineSystem::CUDA : PipelineSystem::OMP;
  options.merge = req.merge_transpositions;
  options.threads = req.threads;
  return options;
}

// The frontier pipeline (host/pipeline.hpp) on the GPUs or on the host's OpenMP system.
RootTotals perft_pipeline(const PerftRequest& req, bool on_gpu) {
  PipelineReport report = pipeline_perft(req.root, req.depth, req.divide, pipeline_options(req, on_gpu));
  return req.divide ? std::move(report.divide) : RootTotals{report.nodes};
}

// Statistics per root move (or in one total) through the pipeline's statistics mode.
std::vector<StatsTotals> perft_stats_pipeline(const PerftRequest& req, bool on_gpu) {
  PipelineStatsReport report = pipeline_perft_stats(req.root, req.depth, req.divide, pipeline_options(req, on_gpu));
  return req.divide ? std::move(report.divide) : std::vector<StatsTotals>{report.stats};
}
#endif

#if defined(PERFTKIT_HAVE_CUDA) && !defined(PERFTKIT_HAVE_PIPELINE)
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

bool runs_with_hash_table(const PerftRequest& req) {
  const bool on_cpu = req.backend == Backend::CPU || (req.backend == Backend::AUTO && !cuda_usable());
  return on_cpu && !req.stats && req.depth >= 3;
}

std::size_t hash_table_bytes(const PerftRequest& req) { return runs_with_hash_table(req) ? req.hash_bytes : 0; }

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

PerftReport run_perft(const PerftRequest& req) {
  if (req.depth < 0) throw std::invalid_argument("depth must be non-negative");
#ifndef PERFTKIT_HAVE_PIPELINE
  if (req.stats && req.backend == Backend::CUDA)
    throw std::runtime_error("--stats with --backend cuda needs the frontier pipeline, which this build lacks");
#endif
  const bool use_cuda = req.backend == Backend::CUDA || (req.backend == Backend::AUTO && cuda_usable());
  if (req.backend == Backend::CUDA && !cuda_usable())
    throw std::runtime_error("--backend cuda: no CUDA device is available (or perftkit was built without CUDA)");
#ifndef PERFTKIT_HAVE_PIPELINE
  if (req.backend == Backend::PIPELINE)
    throw std::runtime_error("--backend pipeline: this build has no frontier pipeline (Thrust or OpenMP missing)");
#endif
  const bool use_pipeline = req.backend == Backend::PIPELINE;

  PerftReport report;
  report.backend = use_cuda ? "cuda" : use_pipeline ? "pipeline" : "cpu";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Move> moves = root_moves(req.root);

  RootTotals totals;
  std::vector<StatsTotals> stats;
  if (req.stats && req.depth >= 1) {
#if defined(PERFTKIT_HAVE_PIPELINE)
    if ((use_cuda || use_pipeline) && req.depth >= 2) stats = perft_stats_pipeline(req, use_cuda);
    else stats = root_move_stats(req, moves);
#else
    stats = root_move_stats(req, moves);
#endif
    for (const StatsTotals& s : stats) {
      totals.push_back(s[NODES]);
      report.stats += s;
    }
    report.nodes = report.stats[NODES];
  } else if (req.depth <= 1) {
    totals.assign(moves.size(), req.depth == 1 ? 1 : 0);
    report.nodes = req.depth == 1 ? moves.size() : 1;
    if (req.stats) report.stats.count[NODES] = 1;  // depth 0: the root, and no move into it
  } else {
#if defined(PERFTKIT_HAVE_PIPELINE)
    totals = (use_cuda || use_pipeline) ? perft_pipeline(req, use_cuda) : perft_cpu(req, moves.size());
#elif defined(PERFTKIT_HAVE_CUDA)
    totals = use_cuda ? perft_cuda(req, moves.size()) : perft_cpu(req, moves.size());
#else
    totals = perft_cpu(req, moves.size());
#endif
    for (u128 t : totals) report.nodes += t;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (req.divide && req.depth >= 1) {
    for (std::size_t m = 0; m < moves.size(); ++m)
      report.divide.push_back(
          {moves[m], to_uci(moves[m], req.chess960), totals[m], stats.empty() ? StatsTotals{} : stats[m]});
    std::sort(report.divide.begin(), report.divide.end(),
              [](const DivideEntry& a, const DivideEntry& b) { return a.uci < b.uci; });
  }
  return report;
}

}  // namespace perftkit
