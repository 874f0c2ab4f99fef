#include "pipeline/pipeline.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "perftkit/stats.hpp"
#include "pipeline/backend.hpp"

#include "common/cuda_devices.hpp"
#include "pipeline/cuda_pipeline.hpp"

namespace perftkit {
namespace {

using pipeline::BatchSpan;

// Work units per device when several devices share the frontier (dynamic balance).
constexpr std::size_t BATCHES_PER_DEVICE = 8;

// (0 in a build without CUDA: common/cuda_devices_none.cpp)
int cuda_devices(const PipelineOptions& options) {
  const int visible = cuda::device_count();
  return options.max_devices > 0 ? std::min(visible, options.max_devices) : visible;
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

template <typename Tally>
pipeline::BatchResults<Tally> count_batches(const std::vector<FrontierNode>& frontier,
                                            const std::vector<BatchSpan>& batches, int remaining,
                                            const PipelineOptions& options) {
  if (options.system == PipelineSystem::CUDA) {
    if (!cuda::built()) throw std::runtime_error("pipeline: perftkit was built without CUDA");
    if (cuda_devices(options) == 0) throw std::runtime_error("pipeline: no CUDA device is available");
    return cuda::count_batches_pipeline<Tally>(frontier, batches, remaining, options);
  }
  return pipeline::count_batches_omp<Tally>(frontier, batches, remaining, options);
}

template <typename Tally>
std::vector<typename Tally::Total> count_frontier(const std::vector<FrontierNode>& frontier, int remaining,
                                                  bool per_root_move, std::size_t root_move_count,
                                                  const PipelineOptions& options, PipelineCounters* counters) {
  using Total = typename Tally::Total;
  if (remaining < 0) throw std::invalid_argument("pipeline: negative depth");
  std::vector<Total> totals(per_root_move ? root_move_count : 1, Total{});
  for (std::size_t i = 0; i < frontier.size(); ++i) {
    if (per_root_move && frontier[i].root_move >= root_move_count)
      throw std::invalid_argument("pipeline: a frontier node names a root move out of range");
    if (per_root_move && i > 0 && frontier[i].root_move < frontier[i - 1].root_move)
      throw std::invalid_argument("pipeline: frontier nodes must be sorted by root move");
  }
  if (frontier.empty()) return totals;

  const std::vector<BatchSpan> batches =
      make_batches(frontier, per_root_move, automatic_batch_nodes(options, frontier.size()));
  pipeline::BatchResults<Tally> results = count_batches<Tally>(frontier, batches, remaining, options);
  for (std::size_t b = 0; b < batches.size(); ++b) {
    Total total = results.totals[b];
    for (const BatchSpan& rest : results.leftovers[b]) {
      total += pipeline::count_span_cpu<Tally>(frontier, rest, remaining, options.threads);
      ++results.counters.fallback_batches;
    }
    totals[per_root_move ? frontier[batches[b].first].root_move : 0] += total;
  }
  if (counters) *counters += results.counters;
  return totals;
}

}  // namespace

bool pipeline_available(PipelineSystem system) noexcept {
  if (system == PipelineSystem::OMP) return true;
  PipelineOptions options;
  return cuda_devices(options) > 0;
}

template <typename Tally>
std::vector<typename Tally::Total> pipeline_count_frontier(const std::vector<FrontierNode>& frontier, int remaining,
                                                           bool per_root_move, std::size_t root_move_count,
                                                           const PipelineOptions& options, PipelineCounters* counters) {
  if (std::is_same_v<Tally, pipeline::CountStats> && remaining < 1)
    throw std::invalid_argument("pipeline: statistics need at least one ply below the frontier");
  return count_frontier<Tally>(frontier, remaining, per_root_move, root_move_count, options, counters);
}

template std::vector<u128> pipeline_count_frontier<pipeline::CountNodes>(const std::vector<FrontierNode>&, int, bool,
                                                                         std::size_t, const PipelineOptions&,
                                                                         PipelineCounters*);
template std::vector<StatsTotals> pipeline_count_frontier<pipeline::CountStats>(const std::vector<FrontierNode>&, int,
                                                                                bool, std::size_t,
                                                                                const PipelineOptions&,
                                                                                PipelineCounters*);

}  // namespace perftkit
