// Runs one perft on a backend and reports exact totals, divide, statistics and timing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/work_progress.hpp"
#include "perft/hash_sizing.hpp"
#include "perft/stats_table.hpp"
#include "pipeline/frontier.hpp"
#include "perftkit/position.hpp"
#include "pipeline/stats_totals.hpp"
#include "common/thread_count.hpp"
#include "common/uint128.hpp"

namespace perftkit {

// CPU: recursive core on threads. CUDA: the frontier pipeline on every GPU. PIPELINE: the
// same pipeline on the host's OpenMP system, the code path the GPU runs.
enum class Backend { AUTO, CPU, CUDA, PIPELINE };

struct PerftRequest {
  Position root{};
  int depth = 1;
  bool divide = false;
  unsigned threads = 0;  // 0: every hardware thread
  Backend backend = Backend::AUTO;
  bool chess960 = false;             // write castling moves as king-takes-rook
  bool merge_transpositions = true;  // merge identical frontier positions (off: pure move-generation speed)
  bool stats = false;           // leaf statistics (perftkit/stats.hpp); the pipeline's statistics mode on cuda/pipeline
  std::size_t hash_bytes = 0;   // transposition table of subtree counts (0: none): node counts on every backend
                                // (the pipeline's, per device on CUDA), statistics on the CPU core and the
                                // pipeline on OpenMP (StatsTable)
  std::uint64_t hash_seed = 1;  // selects the key set of the table (an independent one per seed)
  WorkProgress* progress = nullptr;  // set: the CPU backend counts its units here (a progress line)
};

struct DivideEntry {
  Move move;
  std::string uci;
  u128 nodes;
  StatsTotals stats;  // filled when statistics were asked for
};

struct PerftReport {
  u128 nodes = 0;
  std::vector<DivideEntry> divide;  // sorted by UCI text when requested
  StatsTotals stats;                // filled when statistics were asked for
  double seconds = 0;
  std::string backend;        // "cpu", "cuda" or "pipeline": where the count ran
  std::string cpu_fallback;   // why the CPU core counted what the chosen backend could not; empty if it did not
  StatsTableUse stats_table;  // statistics with a table: its probes and hits (and on the CPU core, stores)
};

class PerftTable;
class SubtreeTable;
namespace cuda {
class CudaSession;
}

// Counts frontiers on one backend (CPU threads with the transposition table, the pipeline,
// or CUDA), keeping its table from one call to the next: a worker that counts many work
// units (host/workdir/work_dir.hpp) reuses the subtrees of its earlier units.
class FrontierCounter {
 public:
  // Uses settings' backend, threads, hash_bytes, hash_seed and merge_transpositions (not its
  // root, depth, divide or stats). Throws std::runtime_error when the backend cannot run here.
  explicit FrontierCounter(const PerftRequest& settings);
  ~FrontierCounter();
  FrontierCounter(const FrontierCounter&) = delete;
  FrontierCounter& operator=(const FrontierCounter&) = delete;

  // Exact sum over nodes of multiplicity x perft(position, remaining): one total per root
  // move when per_root_move (nodes grouped by root_move, each below root_move_count), else
  // one total. Waits for the GPU.
  std::vector<u128> count(std::vector<FrontierNode> nodes, int remaining, bool per_root_move,
                          std::size_t root_move_count);

  // Exact statistics (leaf counters) of the nodes' subtrees, `remaining` plies each: on the
  // CPU core through a statistics table kept across calls (settings' hash size), or in the
  // pipeline's statistics mode on the GPUs and with the pipeline backend (CPU core fallback
  // as for counts). Root moves are ignored. Waits for the GPU.
  StatsTotals count_stats(std::vector<FrontierNode> nodes, int remaining);

  // "cpu", "cuda" or "pipeline": where the last count ran.
  const char* backend_name() const;
  // Why the last count ran on the CPU core instead of the pipeline (a count beyond its
  // 64-bit words), or empty.
  const std::string& cpu_fallback() const { return cpu_fallback_; }
  bool on_cpu_core() const { return engine_ == Engine::CPU; }
  bool on_gpu() const { return engine_ == Engine::CUDA; }
  // Bytes of the host transposition table kept across calls (0: none made yet, or on a GPU).
  std::size_t table_bytes() const;

 private:
  enum class Engine { CPU, CUDA, PIPELINE };
  PerftRequest settings_;
  Engine engine_;
  std::unique_ptr<PerftTable> table_;               // made on first use by a hashed count on the CPU core
  std::unique_ptr<StatsTable> stats_table_;         // ...and by hashed statistics (CPU core, pipeline on OpenMP)
  std::unique_ptr<SubtreeTable> pipeline_table_;    // ...and by one of the pipeline on OpenMP
  std::unique_ptr<cuda::CudaSession> gpu_session_;  // ...and on the GPUs: their tables and level buffers
  std::string cpu_fallback_;
  // A frontier this many plies from its leaves or more goes straight to the CPU core: one
  // already outgrew the pipeline's 64-bit words, for the reason kept (no limit until then).
  int cpu_core_from_remaining_ = std::numeric_limits<int>::max();
  std::string outgrown_pipeline_;
};

// Exact perft of request.root (with statistics, the leaf counters too: on the CPU core, or
// the pipeline's statistics mode on cuda and pipeline). Throws std::runtime_error when the
// CUDA backend is asked for and no device can run it; AUTO picks CUDA when a device is present.
PerftReport run_perft(const PerftRequest& request);

// Whether a run of request can use a transposition table: three plies deep or more, node
// counts on the CPU core and on the frontier pipeline (OpenMP or the GPUs), statistics on the
// CPU core and the pipeline on OpenMP (a StatsTable).
bool runs_with_hash_table(const PerftRequest& request);

// Whether a run of request counts on CUDA devices (cuda, or auto with a device present).
bool runs_on_gpu(const PerftRequest& request);

// The table a run of request keeps: the frontier pipeline's on the GPUs and with --backend
// pipeline, else the CPU core's (one layout; a pipeline run takes --hash as asked).
enum class HashTableKind { CPU_CORE, PIPELINE };
HashTableKind hash_table_kind(const PerftRequest& request);

// Bytes of transposition table a run of request uses (0: none).
std::size_t hash_table_bytes(const PerftRequest& request);

}  // namespace perftkit
