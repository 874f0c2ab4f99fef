#include "perft_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cuda_presence.hpp"
#include "frontier.hpp"
#include "hashed_perft.hpp"
#ifdef PERFTKIT_HAVE_PIPELINE
#include "pipeline.hpp"
#endif
#include "subtree_table.hpp"
#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
#include "uci.hpp"

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

// Frontier nodes `remaining` plies above the leaves: the part of a perft still to count.
struct FrontierJob {
  std::vector<FrontierNode> nodes;
  int remaining;
  bool keep_root_moves;
  bool merge;
};

// Deepens job one ply at a time while it has fewer than target_units nodes or a unit would
// count more than max_unit_depth plies, and more than min_remaining plies stay below it.
void deepen(FrontierJob& job, std::size_t target_units, int min_remaining, int max_unit_depth = MAX_UNIT_DEPTH) {
  while ((job.nodes.size() < target_units || job.remaining > max_unit_depth) && job.remaining > min_remaining) {
    job.nodes = expand_level(job.nodes, job.keep_root_moves, job.merge);
    --job.remaining;
  }
}

// The whole tree of req: every position one ply below the root.
FrontierJob root_job(const PerftRequest& req) {
  return {expand_frontier(req.root, 1, req.divide, req.merge_transpositions), req.depth - 1, req.divide,
          req.merge_transpositions};
}

// Units for the CPU threads: many per thread and, when merging without a table, enough to
// find transpositions (a table merges the subtrees below the frontier: keep it shallow).
std::size_t cpu_units(const PerftRequest& req, unsigned threads) {
  const std::size_t units = std::size_t(threads) * 64;
  return req.merge_transpositions && !req.hash_bytes ? std::max(units, MERGED_FRONTIER_TARGET) : units;
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

// The CPU backend: the job deepened into units for the threads, each unit counted by the
// recursive core, through `table` (made on first use) when the request has a hash size.
RootTotals count_cpu(FrontierJob job, const PerftRequest& req, std::unique_ptr<PerftTable>& table,
                     std::size_t root_move_count) {
  const unsigned threads = thread_count(req);
  deepen(job, cpu_units(req, threads), 2);
  const int remaining = job.remaining;
  if (req.hash_bytes && remaining > 1) {
    if (!table) table = std::make_unique<PerftTable>(req.hash_bytes);
    PerftTable& shared = *table;
    const KeySet keys(req.hash_seed);
    return count_frontier<u128>(job.nodes, threads, root_move_count,
                                [&](const FrontierNode& node, RootTotals& totals) {
                                  totals[node.root_move] +=
                                      u128(perft_hashed(node.position, remaining, shared, keys)) * node.multiplicity;
                                });
  }
  return count_frontier<u128>(job.nodes, threads, root_move_count,
                              [remaining](const FrontierNode& node, RootTotals& totals) {
                                totals[node.root_move] += u128(perft(node.position, remaining)) * node.multiplicity;
                              });
}

// Statistics on the CPU (depth >= 2): each unit counts in 64 bits, totals are 128-bit.
std::vector<StatsTotals> perft_stats_cpu(const PerftRequest& req, std::size_t root_move_count) {
  const unsigned threads = thread_count(req);
  FrontierJob job = root_job(req);
  deepen(job, cpu_units(req, threads), 2);
  const int remaining = job.remaining;
  return count_frontier<StatsTotals>(job.nodes, threads, root_move_count,
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
// Options of a pipeline run of req; node counts use req's transposition table (statistics
// never do: they need the clocks).
PipelineOptions pipeline_options(const PerftRequest& req, bool on_gpu) {
  PipelineOptions options;
  options.system = on_gpu ? PipelineSystem::CUDA : PipelineSystem::OMP;
  options.merge = req.merge_transpositions;
  options.threads = req.threads;
  if (!req.stats) {
    options.hash_bytes = req.hash_bytes;
    options.hash_seed = req.hash_seed;
  }
  return options;
}

// The frontier pipeline (host/pipeline.hpp) on the GPUs or on the host's OpenMP system: the
// host expands the job to the pipeline's frontier size, leaving at least two plies below.
// On the OpenMP system a hashed count uses `table` (made on first use), kept across calls.
RootTotals count_pipeline(FrontierJob job, const PerftRequest& req, bool on_gpu, std::size_t root_move_count,
                          std::unique_ptr<SubtreeTable>& table) {
  PipelineOptions options = pipeline_options(req, on_gpu);
  if (!on_gpu && options.hash_bytes) {
    if (!table) table = std::make_unique<SubtreeTable>(options.hash_bytes);
    options.omp_table = table.get();
  }
  deepen(job, options.host_frontier, 2, std::numeric_limits<int>::max());
  return pipeline_count_frontier(job.nodes, job.remaining, job.keep_root_moves, root_move_count, options);
}

// Statistics per root move (or in one total) through the pipeline's statistics mode.
std::vector<StatsTotals> perft_stats_pipeline(const PerftRequest& req, bool on_gpu) {
  PipelineStatsReport report = pipeline_perft_stats(req.root, req.depth, req.divide, pipeline_options(req, on_gpu));
  return req.divide ? std::move(report.divide) : std::vector<StatsTotals>{report.stats};
}
#endif

}  // namespace

bool runs_with_hash_table(const PerftRequest& req) {
#ifdef PERFTKIT_HAVE_PIPELINE
  const bool hashed_backend = true;  // the CPU core, and the pipeline on OpenMP or the GPUs
#else
  const bool hashed_backend = req.backend == Backend::CPU || (req.backend == Backend::AUTO && !cuda_device_present());
#endif
  return hashed_backend && !req.stats && req.depth >= 3;
}

bool runs_on_gpu(const PerftRequest& req) {
  return req.backend == Backend::CUDA || (req.backend == Backend::AUTO && cuda_device_present());
}

std::size_t hash_table_bytes(const PerftRequest& req) { return runs_with_hash_table(req) ? req.hash_bytes : 0; }

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

FrontierCounter::FrontierCounter(const PerftRequest& settings) : settings_(settings), engine_(Engine::CPU) {
  if (settings.backend == Backend::CUDA && !cuda_device_present())
    throw std::runtime_error("--backend cuda: no CUDA device is available (or perftkit was built without CUDA)");
#ifndef PERFTKIT_HAVE_PIPELINE
  if (settings.backend == Backend::PIPELINE)
    throw std::runtime_error("--backend pipeline: this build has no frontier pipeline (Thrust or OpenMP missing)");
#endif
  if (settings.backend == Backend::CUDA || (settings.backend == Backend::AUTO && cuda_device_present())) engine_ = Engine::CUDA;
  if (settings.backend == Backend::PIPELINE) engine_ = Engine::PIPELINE;
}

FrontierCounter::~FrontierCounter() = default;

std::size_t FrontierCounter::table_bytes() const {
  if (table_) return table_->bytes();
  return pipeline_table_ ? pipeline_table_->bytes() : 0;
}

const char* FrontierCounter::backend_name() const {
  return engine_ == Engine::CUDA ? "cuda" : engine_ == Engine::PIPELINE ? "pipeline" : "cpu";
}

std::vector<u128> FrontierCounter::count(std::vector<FrontierNode> nodes, int remaining, bool per_root_move,
                                         std::size_t root_move_count) {
  if (remaining < 0) throw std::invalid_argument("depth must be non-negative");
  if (!per_root_move) {
    root_move_count = 1;
    for (FrontierNode& node : nodes) node.root_move = 0;
  }
  for (const FrontierNode& node : nodes)
    if (node.root_move >= root_move_count) throw std::invalid_argument("a frontier node names a root move out of range");
  FrontierJob job{std::move(nodes), remaining, per_root_move, settings_.merge_transpositions};
#if defined(PERFTKIT_HAVE_PIPELINE)
  if (engine_ != Engine::CPU)
    return count_pipeline(std::move(job), settings_, engine_ == Engine::CUDA, root_move_count, pipeline_table_);
#endif
  return count_cpu(std::move(job), settings_, table_, root_move_count);
}

PerftReport run_perft(const PerftRequest& req) {
  if (req.depth < 0) throw std::invalid_argument("depth must be non-negative");
#ifdef PERFTKIT_HAVE_PIPELINE
  const PerftRequest& counting = req;  // statistics run on every backend
#else
  if (req.stats && req.backend == Backend::CUDA)
    throw std::runtime_error("--stats with --backend cuda needs the frontier pipeline, which this build lacks");
  PerftRequest counting = req;
  if (req.stats) counting.backend = Backend::CPU;
#endif
  FrontierCounter counter(counting);

  PerftReport report;
  report.backend = counter.backend_name();
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Move> moves = root_moves(req.root);

  RootTotals totals;
  std::vector<StatsTotals> stats;
  if (req.stats && req.depth >= 1) {
#if defined(PERFTKIT_HAVE_PIPELINE)
    if (!counter.on_cpu_core() && req.depth >= 2) stats = perft_stats_pipeline(req, counter.on_gpu());
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
    FrontierJob job = root_job(req);
    totals = counter.count(std::move(job.nodes), job.remaining, req.divide, moves.size());
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
