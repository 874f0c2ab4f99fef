#include "support/pipeline_root_runs.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "perftkit/stats.hpp"
#include "pipeline/frontier.hpp"

namespace perftkit {
namespace {

// The host plies: exactly host_plies, or until the frontier is big enough while at least
// two plies stay below it; never fewer than `keep_below` below it. Root moves stay apart
// when dividing.
std::vector<FrontierNode> host_frontier(const Position& root, int depth, bool divide, const PipelineOptions& options,
                                        int keep_below, PipelineCounters& counters) {
  const int wanted = options.host_plies > 0 ? std::min(options.host_plies, depth - keep_below) : 0;
  int plies = 1;
  std::vector<FrontierNode> frontier = expand_frontier(root, 1, divide, options.merge);
  while (wanted ? plies < wanted : frontier.size() < options.host_frontier && depth - plies > 2) {
    frontier = expand_level(frontier, divide, options.merge);
    ++plies;
  }
  counters.host_plies = plies;
  counters.host_frontier = frontier.size();
  return frontier;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

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
  const std::vector<FrontierNode> frontier = host_frontier(root, depth, divide, options, 0, report.counters);
  std::vector<u128> totals = pipeline_count_frontier<pipeline::CountNodes>(
      frontier, depth - report.counters.host_plies, divide, move_count, options, &report.counters);
  for (u128 t : totals) report.nodes += t;
  if (divide) report.divide = std::move(totals);
  report.seconds = seconds_since(start);
  return report;
}

PipelineStatsReport pipeline_perft_stats(const Position& root, int depth, bool divide, const PipelineOptions& options) {
  if (depth < 0) throw std::invalid_argument("pipeline: negative depth");
  const auto start = std::chrono::steady_clock::now();
  PipelineStatsReport report;
  report.system = options.system == PipelineSystem::CUDA ? "cuda" : "omp";
  const std::vector<Move> moves = root_moves(root);
  if (depth <= 1) {  // the root's own moves are the leaves: nothing for a system to do
    report.divide.resize(moves.size());
    for (std::size_t m = 0; m < moves.size(); ++m) {
      if (depth == 1) report.divide[m].add(move_stats(root, moves[m]), 1);
      report.stats += report.divide[m];
    }
    if (depth == 0) report.stats.count[NODES] = 1;
    if (!divide) report.divide.clear();
    return report;
  }
  const std::vector<FrontierNode> frontier = host_frontier(root, depth, divide, options, 1, report.counters);
  std::vector<StatsTotals> totals = pipeline_count_frontier<pipeline::CountStats>(
      frontier, depth - report.counters.host_plies, divide, moves.size(), options, &report.counters);
  for (const StatsTotals& t : totals) report.stats += t;
  if (divide) report.divide = std::move(totals);
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace perftkit
