#include "perft/suite_checks.hpp"

#include <algorithm>
#include <exception>

#include "common/cancellation.hpp"
#include "common/parallel_for.hpp"
#include "notation/fen.hpp"

namespace perftkit {
namespace {

// Checks expecting fewer nodes never get more than one thread: splitting them costs more than it saves.
constexpr u128 MIN_SPLIT_NODES = u128(1) << 22;
// On CUDA, a check smaller than this runs on the CPU: each GPU run pays a stream, an
// allocation and about ten synchronisations, more than the CPU needs for the whole check
// (a suite such as random.perft at depth 4 would otherwise be some 20,000 GPU runs).
constexpr u128 MIN_GPU_CHECK_NODES = 10'000'000;

void run_check(const SuiteCheck& check, unsigned threads, Backend backend, SuiteCheckListener& listener) {
  PerftRequest request;
  request.root = check.root;
  request.depth = check.depth;
  request.threads = threads;
  request.backend = backend;
  request.chess960 = check.chess960;
  try {
    listener.finished(check, run_perft(request));
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    listener.failed(check, check.suite_case->source + " depth " + std::to_string(check.depth) + ": " + e.what());
  }
}

}  // namespace

std::vector<SuiteCheck> plan_suite_checks(const std::vector<Suite>& suites, const SuiteCheckLimits& limits,
                                          SuiteCheckListener& listener, std::size_t& skipped) {
  std::vector<SuiteCheck> checks;
  for (std::size_t file_index = 0; file_index < suites.size(); ++file_index) {
    for (const SuiteCase& c : suites[file_index].cases) {
      std::vector<ExpectedCount> selected;
      for (const ExpectedCount& e : c.expected) {
        if (e.depth <= limits.max_depth && e.nodes <= limits.max_nodes) selected.push_back(e);
        else ++skipped;
      }
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      if (!parsed) {
        listener.invalid_position(file_index, c, parsed.error, std::max<std::size_t>(1, selected.size()));
        continue;
      }
      for (const ExpectedCount& e : selected)
        checks.push_back({&c, file_index, parsed->position, parsed->chess960, e.depth, e.nodes});
    }
  }
  return checks;
}

void run_suite_checks(const std::vector<SuiteCheck>& checks, unsigned threads, Backend backend,
                      SuiteCheckListener& listener) {
  std::vector<const SuiteCheck*> order;
  u128 total = 0;
  for (const SuiteCheck& c : checks) {
    order.push_back(&c);
    total += c.expected;
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const SuiteCheck* a, const SuiteCheck* b) { return a->expected > b->expected; });
  const auto big = [&](const SuiteCheck* c) {
    if (backend == Backend::CUDA) return c->expected >= MIN_GPU_CHECK_NODES;
    return c->expected >= MIN_SPLIT_NODES && c->expected * 4 * threads > total;
  };
  const auto first_small = std::find_if_not(order.begin(), order.end(), big);
  for (auto it = order.begin(); it != first_small && !listener.stopped(); ++it) {
    throw_if_stopped(current_stop_flag());
    run_check(**it, threads, backend, listener);
  }

  const std::vector<const SuiteCheck*> small(first_small, order.end());
  parallel_for(small.size(), threads, [&](unsigned, std::size_t i) {
    if (!listener.stopped()) run_check(*small[i], 1, Backend::CPU, listener);
  });
}

}  // namespace perftkit
