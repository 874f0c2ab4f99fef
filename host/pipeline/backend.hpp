// The interface between the pipeline's host driver and its execution systems: the host
// frontier is cut into work units (batches), each system counts as many as it can hold, and
// the driver counts the rest with the CPU core. Host-safe: no Thrust, no CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pipeline/frontier.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/stats_totals.hpp"
#include "common/uint128.hpp"

namespace perftkit::pipeline {

// A work unit: frontier nodes [first, first + count).
struct BatchSpan {
  std::size_t first;
  std::size_t count;
};

template <typename Tally>
struct BatchResults {
  std::vector<typename Tally::Total> totals;      // per batch: what the system counted of it
  std::vector<std::vector<BatchSpan>> leftovers;  // per batch: the parts it could not hold
  PipelineCounters counters;
};

// Level buffers of one OpenMP worker when the options name no budget.
inline constexpr std::size_t DEFAULT_OMP_BUDGET = std::size_t(1) << 30;
// ...in the subtree mode (a table): there the table finds what a smaller chunk no longer
// merges, and the last interior level is 19-byte slots, so a sixteenth of the buffers counts
// hashed perft 8 and 9 a little faster, with 0.2 GB less resident
// (results/pipeline-subtree-omp-vm-2026-12-06.md).
inline constexpr std::size_t SUBTREE_OMP_BUDGET = std::size_t(64) << 20;
// A worker that has halved its buffers below this gives its batch to the CPU core.
inline constexpr std::size_t MIN_BUDGET = std::size_t(1) << 20;

// Counts every batch on the OpenMP system (one worker, all cores inside each step).
// Instantiated for CountNodes and CountStats.
template <typename Tally>
BatchResults<Tally> count_batches_omp(const std::vector<FrontierNode>& frontier, const std::vector<BatchSpan>& batches,
                                      int remaining, const PipelineOptions& options);

// Sum of multiplicity x (perft or statistics of node, remaining) over frontier[span] with the
// recursive core on `threads` host threads (0: all): the fallback for batches no system
// could hold. Instantiated for CountNodes and CountStats.
template <typename Tally>
typename Tally::Total count_span_cpu(const std::vector<FrontierNode>& frontier, BatchSpan span, int remaining,
                                     unsigned threads);

}  // namespace perftkit::pipeline
