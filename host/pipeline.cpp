#include "pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "pipeline_backend.hpp"

#ifdef PERFTKIT_HAVE_CUDA
#include "cuda_backend.hpp"
#include "cuda_pipeline.hpp"
#endif

namespace perftkit {
namespace {

using pipeline::BatchSpan;

// Work units per device when several devices share the frontier (dynamic balance).
constexpr std::size_t BATCHES_PER_DEVICE = 8;

int cuda_devices(const PipelineOptions& options) {
#ifdef PERFTKIT_HAVE_CUDA
  const int visible = cuda::device_count();
  return options.max_devices > 0 ? std::min(visible, options.max_devices) : visible;
#else
  (void)options;
  return 0;
#endif
}

// Cuts the frontier into work units of at most batch_nodes nodes (0: no limit), never
// across a change of root move when per_root_move.
std::vector<BatchSpan> make_batches(const std::vector<FrontierNode>& frontier, bool per_root_move,
                                    std::size_t batch_nodes) {
  std::vector<BatchSpan> batches;
  std::size_t first = 0;
  for (std::size_t i = 1; i <= frontier.size(); ++i) {
    const bool end = i == frontier.size() || (batch_nodes && i - first == batch_nodes) ||
                     (per_root_move && frontier[i].root_move != frontier[first].root_move);
    if (end) {
      batches.push_back({first, i - first});
      first = i;
    }
  }
  return batches;
}

std::size_t automatic_batch_nodes(const PipelineOptions& options, std::size_t frontier_size) {
  if (options.batch_nodes) return options.batch_nodes;
  if (options.system != PipelineSystem::CUDA) return 0;  // one worker: the biggest batches merge the most
  const int devices = cuda_devices(options);
  if (devices <= 1) return 0;
  const std::size_t units = static_cast<std::size_t>(devices) * BATCHES_PER_DEVICE;
  return std::max<std::size_t>(1, (frontier_size + units - 1) / units);
}

pipeline::BatchResults count_batches(const std::vector<FrontierNode>& frontier, const std::vector<BatchSpan>& batches,
                                     int remaining, const PipelineOptions& options) {
  if (options.system == PipelineSystem::CUDA) {
#ifdef PERFTKIT_HAVE_CUDA
    if (cuda_devices(options) == 0) throw std::runtime_error("pipeline: no CUDA device is available");
    return cuda::count_batches_pipeline(frontier, batches, remaining, options);
#else
    throw std::runtime_error("pipeline: perftkit was built without CUDA");
#endif
  }
  return pipeline::count_batches_omp(frontier, batches, remaining, options);
}

}  // namespace

bool pipeline_available(PipelineSystem system) noexcept {
  if (system == PipelineSystem::OMP) return true;
  PipelineOptions options;
  return cuda_devices(options) > 0;
}

std::vector<u128> pipeline_count_frontier(const std::vector<FrontierNode>& frontier, int remaining,
                                          bool per_root_move, std::size_t root_move_count,
                                          const PipelineOptions& options, PipelineCounters* counters) {
  if (remaining < 0) throw std::invalid_argument("pipeline: negative depth");
  std::vector<u128> totals(per_root_move ? root_move_count : 1, 0);
  for (std::size_t i = 0; i < frontier.size(); ++i) {
    if (per_root_move && frontier[i].root_move >= root_move_count)
      throw std::invalid_argument("pipeline: a frontier node names a root move out of range");
    if (per_root_move && i > 0 && frontier[i].root_move < frontier[i - 1].root_move)
      throw std::invalid_argument("pipeline: frontier nodes must be sorted by root move");
  }
  if (frontier.empty()) return totals;

  const std::vector<BatchSpan> batches =
      make_batches(frontier, per_root_move, automatic_batch_nodes(options, frontier.size()));
  pipeline::BatchResults results = count_batches(frontier, batches, remaining, options);
  for (std::size_t b = 0; b < batches.size(); ++b) {
    u128 total = results.totals[b];
    for (const BatchSpan& rest : results.leftovers[b]) {
      total += pipeline::count_span_cpu(frontier, rest, remaining, options.threads);
      ++results.counters.fallback_batches;
    }
    totals[per_root_move ? frontier[batches[b].first].root_move : 0] += total;
  }
  if (counters) *counters += results.counters;
  return totals;
}

PipelineReport pipeline_perft(const Position& root, int depth, bool divide, const PipelineOptions& options) {
  if (depth < 0) throw std::invalid_argument("pipeline: negative depth");
  const auto start = std::chrono::steady_clock::now();
  PipelineReport report;
  report.system = options.system == PipelineSystem::CUDA ? "cuda" : "omp";
  const std::size_t move_count = root_moves(root).size();
  if (depth == 0) {
    report.nodes = 1;
    if (divide) report.divide.assign(move_count, 0);
    return report;
  }

  // The host plies: exactly host_plies, or until the frontier is big enough while at
  // least two plies stay below it. Root moves stay apart when dividing.
  const int wanted = options.host_plies > 0 ? std::min(options.host_plies, depth) : 0;
  int plies = 1;
  std::vector<FrontierNode> frontier = expand_frontier(root, 1, divide, options.merge);
  while (wanted ? plies < wanted : frontier.size() < options.host_frontier && depth - plies > 2) {
    frontier = expand_level(frontier, divide, options.merge);
    ++plies;
  }
  report.counters.host_plies = plies;
  report.counters.host_frontier = frontier.size();

  std::vector<u128> totals = pipeline_count_frontier(frontier, depth - plies, divide, move_count, options, &report.counters);
  for (u128 t : totals) report.nodes += t;
  if (divide) report.divide = std::move(totals);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace perftkit
