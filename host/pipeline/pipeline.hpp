// The frontier pipeline: the host expands the top plies (merging identical positions), the
// levels below expand breadth-first on an execution system (OpenMP here, CUDA on a GPU) with
// exact merging, and the last two plies are counted per node. Totals are exact 128-bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/frontier.hpp"
#include "perftkit/position.hpp"
#include "pipeline/stats_subtree_table.hpp"
#include "pipeline/stats_totals.hpp"
#include "common/uint128.hpp"

namespace perftkit {

class SubtreeTable;
namespace cuda {
class CudaSession;
}

// Where the levels below the host frontier run.
enum class PipelineSystem { OMP, CUDA };

// Default seed of the sort keys. Keys only order nodes for merging (merging compares whole
// positions), so any seed gives the same totals; another seed is a cheap re-run check.
inline constexpr std::uint64_t PIPELINE_DEFAULT_SEED = 0x5EED'0F'C0FFEEULL;

struct PipelineOptions {
  PipelineSystem system = PipelineSystem::OMP;
  bool merge = true;                 // merge identical positions at every level (off: pure move generation)
  std::size_t memory_budget = 0;     // bytes of level buffers per worker (per device); 0: what the
                                     // biggest batch could use, at most 1 GiB (OMP) or 80% of free memory (CUDA)
  std::size_t batch_nodes = 0;       // host-frontier nodes per work unit; 0: automatic
  std::size_t max_chunk_nodes = 0;   // most children expanded at once; 0: whatever the memory holds (tests force small)
  std::size_t host_frontier = 1024;  // expand on the host until the frontier has this many nodes...
  int host_plies = 0;                // ...or exactly this many plies (> 0), leaving at least 2 below
  std::uint64_t key_seed = PIPELINE_DEFAULT_SEED;
  std::uint64_t key_mask = ~std::uint64_t(0);  // tests: 0 makes every key collide (merging must stay exact)
  unsigned threads = 0;                        // OMP threads (levels and CPU fallback); 0: every hardware thread
  int max_devices = 0;                         // CUDA devices used; 0: every visible device
  // Transposition table of subtree counts (node counts; statistics take stats_table): bytes of table
  // on the OpenMP system, per device on CUDA; 0: none (levels sum weighted leaf counts).
  std::size_t hash_bytes = 0;
  std::uint64_t hash_seed = 1;                        // KeySet seed of the table keys
  std::uint64_t hash_index_mask = ~std::uint64_t(0);  // tests: 0 sends every key to one bucket
  SubtreeTable* omp_table = nullptr;  // OpenMP system: use this table (kept across runs) instead of a fresh one
                                      // of hash_bytes; set, it turns the table mode on by itself
  // OpenMP system, statistics: count through this table of subtree statistics (the caller's,
  // kept across runs; the CPU core's layout and keys, seeded by hash_seed); empty: none.
  StatsTableView stats_table{};
  // CUDA system, node counts: keep each device's stream, table and level buffers in this
  // session across runs (a work dir's shards) instead of building them for every run.
  cuda::CudaSession* cuda_session = nullptr;
  // With a table, the last interior level (three plies above the leaves) as child slots
  // (moves) rather than merged positions; off compares the two on one GPU
  // (PERFTKIT_PIPELINE_SLOTS=0, bench/gpu_peers.sh).
  bool slots = true;
};

// What the pipeline did, summed over workers; for reports and tests.
struct PipelineCounters {
  int host_plies = 0;
  std::size_t host_frontier = 0;     // nodes after the host plies (merged)
  std::size_t batches = 0;           // work units run on the system
  std::size_t fallback_batches = 0;  // work units the system could not hold, counted by the CPU core instead
  std::size_t memory_retries = 0;    // times a worker halved its memory after running out
  std::size_t chunks = 0;            // chunks of children expanded
  std::uint64_t generated = 0;       // children written by level expansions
  std::uint64_t merged_away = 0;     // children removed by merging into an identical one
  std::uint64_t leaf_nodes = 0;      // nodes whose last plies were counted per thread
  std::size_t slot_chunks = 0;       // chunks of child slots of the statistics' last two plies
  int devices = 0;                   // CUDA devices that took work
  std::size_t min_budget = 0;        // smallest level-buffer budget a worker ended with (bytes)
  std::uint64_t table_probes = 0;    // positions looked up in the transposition table
  std::uint64_t table_hits = 0;      // ...and found there
  std::size_t table_bytes = 0;       // smallest table a worker used (bytes; 0: none)

  PipelineCounters& operator+=(const PipelineCounters& o) {
    host_plies = std::max(host_plies, o.host_plies);
    host_frontier += o.host_frontier;
    batches += o.batches;
    fallback_batches += o.fallback_batches;
    memory_retries += o.memory_retries;
    chunks += o.chunks;
    generated += o.generated;
    merged_away += o.merged_away;
    leaf_nodes += o.leaf_nodes;
    slot_chunks += o.slot_chunks;
    devices += o.devices;
    min_budget = min_budget && o.min_budget ? std::min(min_budget, o.min_budget) : std::max(min_budget, o.min_budget);
    table_probes += o.table_probes;
    table_hits += o.table_hits;
    table_bytes =
        table_bytes && o.table_bytes ? std::min(table_bytes, o.table_bytes) : std::max(table_bytes, o.table_bytes);
    return *this;
  }
};

// True when this build can run the pipeline on `system` now (CUDA: built with CUDA and a
// device is visible). Never throws.
bool pipeline_available(PipelineSystem system) noexcept;

// What PipelineSystem::OMP runs on in this build: "OpenMP", or "sequential" in a build
// without OpenMP (the sanitizer presets), where every step runs on the calling thread.
const char* pipeline_host_system() noexcept;

namespace pipeline {
// What a run adds up at its leaves (tally.hpp holds how each is counted).
struct CountNodes {  // perft: leaf nodes
  using Total = u128;
};
struct CountStats {  // perft --stats: the leaf counters of perftkit/stats.hpp
  using Total = StatsTotals;
};
}  // namespace pipeline

// The pipeline's one entry, reached from perft/driver.cpp (which handles the root moves and
// depths 0-1): the sum over nodes of multiplicity x the Tally of position's subtree of
// `remaining` plies, per root_move when per_root_move (totals sized root_move_count), else
// in totals[0]. The frontier's nodes must be grouped by root_move when per_root_move.
// - pipeline::CountNodes: perft's node counts. With options.hash_bytes (or omp_table) every
//   level counts per-node subtrees through a transposition table (subtrees.hpp), shared by
//   all batches of the call (the subtree mode).
// - pipeline::CountStats: perft --stats, equal to perft_stats() of the core; remaining >= 1
//   (the last ply carries the move kinds). Identical positions merge only when their
//   half-move clocks cannot make a difference to the 50- and 75-move counters.
// Nodes the system cannot hold go to the CPU core. Waits for the GPU when the system is
// CUDA. Throws std::invalid_argument for a negative depth (or a statistics run with
// remaining < 1), std::runtime_error when the system is unavailable or a device fails, and
// std::overflow_error when a merged multiplicity or a subtree count would exceed 64 bits;
// never a partial count.
template <typename Tally>
std::vector<typename Tally::Total> pipeline_count_frontier(const std::vector<FrontierNode>& frontier, int remaining,
                                                           bool per_root_move, std::size_t root_move_count,
                                                           const PipelineOptions& options,
                                                           PipelineCounters* counters = nullptr);

}  // namespace perftkit
