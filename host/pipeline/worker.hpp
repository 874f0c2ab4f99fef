// One worker of the pipeline: a block of the system's memory for level buffers, and what
// happens when a batch does not fit. A batch too big for the block is split in halves; a
// system allocation failure (Thrust's temporaries, the device) halves the block and retries;
// what still does not fit is returned as leftovers for the CPU core. Never a partial count.
// With a transposition table batches run in the subtree mode (subtrees.hpp for node counts,
// stats_subtrees.hpp for statistics on the systems that have it); an attempt that fails
// has stored only exact counts, so the table stays valid through every retry.
#pragma once

#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "pipeline/backend.hpp"
#include "pipeline/levels.hpp"
#include "pipeline/stats_subtrees.hpp"
#include "pipeline/subtrees.hpp"

namespace perftkit::pipeline {

// A System for a worker also provides: Block (owns memory: data(), size(), empty()),
// allocate(bytes) -> Block (throws when it cannot), recover() (clears the state an
// allocation failure leaves) and is_out_of_memory(const std::exception&).
template <typename System, typename Tally>
class BatchWorker {
 public:
  using Total = typename Tally::Total;

  // Allocates `budget` bytes, halving while the system is out of memory (not below
  // MIN_BUDGET); a worker left with nothing turns every batch into a leftover. A table
  // switches the levels to the subtree mode: `table` for node counts, `stats_table` for
  // statistics (where has_stats_table<System>()).
  BatchWorker(const System& system, std::size_t budget, const PipelineOptions& options, SubtreeTableView table = {},
              StatsTableView stats_table = {})
      : system_(system), options_(options), table_(table), stats_table_(stats_table) {
    reserve(budget);
  }

  // Counts frontier[span] below `remaining`; appends what it could not count to leftovers.
  Total run(const std::vector<FrontierNode>& frontier, BatchSpan span, int remaining,
            std::vector<BatchSpan>& leftovers) {
    for (;;) {
      if (block_.empty()) {
        leftovers.push_back(span);
        return Total{};
      }
      PipelineCounters attempt{};
      try {
        Arena arena(block_.data(), block_.size());
        const Total total = count(arena, frontier, span, remaining, attempt);
        attempt.batches = 1;
        counters_ += attempt;
        return total;
      } catch (const OutOfWorkspace&) {
        system_.recover();
        if (span.count == 1) {
          leftovers.push_back(span);
          return Total{};
        }
        const BatchSpan front{span.first, span.count / 2},
            back{span.first + span.count / 2, span.count - span.count / 2};
        Total total = run(frontier, front, remaining, leftovers);
        total += run(frontier, back, remaining, leftovers);
        return total;
      } catch (const std::exception& e) {
        if (!dynamic_cast<const std::bad_alloc*>(&e) && !System::is_out_of_memory(e)) throw;
        system_.recover();
        ++counters_.memory_retries;
        const std::size_t half = block_.size() / 2;
        block_ = {};
        if (half >= MIN_BUDGET) reserve(half);
      }
    }
  }

  const PipelineCounters& counters() const { return counters_; }
  // The counters since the last call (or since the worker was made), then zeroed; the block's
  // size stays (min_budget).
  PipelineCounters take_counters() {
    PipelineCounters taken = counters_;
    counters_ = PipelineCounters{};
    counters_.min_budget = block_.size();
    return taken;
  }
  std::size_t block_bytes() const { return block_.size(); }
  // A kept worker takes each run's options (its table and block stay).
  void use_options(const PipelineOptions& options) { options_ = options; }

 private:
  Total count(Arena& arena, const std::vector<FrontierNode>& frontier, BatchSpan span, int remaining,
              PipelineCounters& attempt) const {
    if constexpr (std::is_same_v<Tally, CountNodes>) {
      if (table_)
        return count_span_subtrees(system_, arena, table_, frontier, span.first, span.count, remaining, options_,
                                   attempt);
    }
    if constexpr (std::is_same_v<Tally, CountStats> && has_stats_table<System>()) {
      if (stats_table_)
        return count_span_stats_subtrees(system_, arena, stats_table_, frontier, span.first, span.count, remaining,
                                         options_, attempt);
    }
    return count_span<Tally>(system_, arena, frontier, span.first, span.count, remaining, options_, attempt);
  }

  // Allocates the block, halving while the system is out of memory and the half is still
  // at least MIN_BUDGET; leaves the block empty when nothing fits.
  void reserve(std::size_t bytes) {
    for (;;) {
      try {
        block_ = system_.allocate(bytes);
        break;
      } catch (const std::exception& e) {
        if (!dynamic_cast<const std::bad_alloc*>(&e) && !System::is_out_of_memory(e)) throw;
        system_.recover();
        if (bytes / 2 < MIN_BUDGET) break;
        bytes /= 2;
      }
    }
    counters_.min_budget = block_.size();
  }

  const System& system_;
  PipelineOptions options_;  // a copy: a worker kept in a session outlives the run that made it
  SubtreeTableView table_;
  StatsTableView stats_table_;
  typename System::Block block_{};
  PipelineCounters counters_{};
};

}  // namespace perftkit::pipeline
