#include "perft/driver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "common/cuda_presence.hpp"
#include "common/system_memory.hpp"
#include "pipeline/cuda_pipeline.hpp"
#include "pipeline/frontier.hpp"
#include "perft/driver_jobs.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/subtree_table.hpp"
#include "perftkit/perft.hpp"
#include "notation/uci.hpp"

namespace perftkit {
namespace {

using driver::count_cpu;
using driver::deepen;
using driver::FrontierJob;
using driver::root_job;
using driver::root_move_stats;
using driver::RootTotals;

// Options of a pipeline run of req; node counts use req's transposition table of its size
// (statistics theirs: count_stats_pipeline).
PipelineOptions pipeline_options(const PerftRequest& req, bool on_gpu) {
  PipelineOptions options;
  options.system = on_gpu ? PipelineSystem::CUDA : PipelineSystem::OMP;
  options.merge = req.merge_transpositions;
  options.threads = req.threads;
  options.hash_seed = req.hash_seed;
  if (!req.stats) options.hash_bytes = req.hash_bytes;
  // (A measuring switch, not a user option: the last interior level as merged positions.)
  const char* slots = std::getenv("PERFTKIT_PIPELINE_SLOTS");
  options.slots = !(slots && std::string_view(slots) == "0");
  return options;
}

// The frontier pipeline (host/pipeline/pipeline.hpp) on the GPUs or on the host's OpenMP
// system: the host expands the job to the pipeline's frontier size, leaving at least two
// plies below (for statistics, the last one carries the move kinds).
template <typename Tally>
std::vector<typename Tally::Total> count_on_pipeline(FrontierJob job, const PipelineOptions& options,
                                                     std::size_t root_move_count,
                                                     PipelineCounters* counters = nullptr) {
  deepen(job, options.host_frontier, 2, threads_or_all_cores(options.threads), std::numeric_limits<int>::max());
  return pipeline_count_frontier<Tally>(job.nodes, job.remaining, job.keep_root_moves, root_move_count, options,
                                        counters);
}

// Statistics on the pipeline. On the OpenMP system with a hash size they count through
// `table`, the CPU core's kind of statistics table (made on first use, kept across calls),
// and `use` gets its probes and hits; on the GPUs without one (not built yet).
std::vector<StatsTotals> count_stats_pipeline(FrontierJob job, const PerftRequest& req, bool on_gpu,
                                              std::size_t root_move_count, std::unique_ptr<StatsTable>& table,
                                              StatsTableUse& use) {
  PipelineOptions options = pipeline_options(req, on_gpu);
  if (!on_gpu && req.hash_bytes) {
    if (!table) table = std::make_unique<StatsTable>(req.hash_bytes, threads_or_all_cores(req.threads));
    options.stats_table = table->view();
  }
  PipelineCounters counters;
  std::vector<StatsTotals> totals =
      count_on_pipeline<pipeline::CountStats>(std::move(job), options, root_move_count, &counters);
  use.probes += counters.table_probes;
  use.hits += counters.table_hits;
  return totals;
}

// Node counts on the pipeline. A hashed count keeps its table across calls: on the OpenMP
// system `table`, on the GPUs `session` (with their streams and level buffers), each made
// on first use.
RootTotals count_pipeline(FrontierJob job, const PerftRequest& req, bool on_gpu, std::size_t root_move_count,
                          std::unique_ptr<SubtreeTable>& table, std::unique_ptr<cuda::CudaSession>& session) {
  PipelineOptions options = pipeline_options(req, on_gpu);
  if (!on_gpu && options.hash_bytes) {
    if (!table) table = std::make_unique<SubtreeTable>(options.hash_bytes);
    options.omp_table = table.get();
  }
  if (on_gpu && options.hash_bytes) {
    if (!session) session = std::make_unique<cuda::CudaSession>();
    options.cuda_session = session.get();
  }
  return count_on_pipeline<pipeline::CountNodes>(std::move(job), options, root_move_count);
}

// The pipeline keeps multiplicities and a node's subtree count in 64 bits (the GPU's words)
// and throws std::overflow_error rather than wrap; a deep tree of few positions (bare kings
// at depth 40) outgrows them. Then the CPU core counts it exactly (units of at most
// MAX_UNIT_DEPTH plies, multiplicities in 128 bits), and `why` keeps the pipeline's reason
// (empty when the pipeline counted).
template <typename OnPipeline, typename OnCpuCore>
auto on_pipeline_or_cpu_core(OnPipeline on_pipeline, OnCpuCore on_cpu_core, std::string& why) {
  why.clear();
  try {
    return on_pipeline();
  } catch (const std::overflow_error& e) {
    why = e.what();
  }
  return on_cpu_core();
}

}  // namespace

// Every backend hashes node counts: the CPU core, and the pipeline on OpenMP or the GPUs;
// statistics hash on the CPU core and the pipeline on OpenMP.
bool runs_with_hash_table(const PerftRequest& req) { return req.depth >= 3 && (!req.stats || !runs_on_gpu(req)); }

bool runs_on_gpu(const PerftRequest& req) {
  return req.backend == Backend::CUDA || (req.backend == Backend::AUTO && cuda_device_present());
}

HashTableKind hash_table_kind(const PerftRequest& req) {
  return runs_on_gpu(req) || req.backend == Backend::PIPELINE ? HashTableKind::PIPELINE : HashTableKind::CPU_CORE;
}

std::size_t hash_table_bytes(const PerftRequest& req) { return runs_with_hash_table(req) ? req.hash_bytes : 0; }

FrontierCounter::FrontierCounter(const PerftRequest& settings) : settings_(settings), engine_(Engine::CPU) {
  if (settings.backend == Backend::CUDA && !cuda_device_present())
    throw std::runtime_error("--backend cuda: no CUDA device is available (or perftkit was built without CUDA)");
  if (settings.backend == Backend::CUDA || (settings.backend == Backend::AUTO && cuda_device_present()))
    engine_ = Engine::CUDA;
  if (settings.backend == Backend::PIPELINE) engine_ = Engine::PIPELINE;
}

FrontierCounter::~FrontierCounter() = default;

std::size_t FrontierCounter::table_bytes() const {
  if (table_) return table_->bytes();
  if (stats_table_) return stats_table_->bytes();
  return pipeline_table_ ? pipeline_table_->bytes() : 0;
}

const char* FrontierCounter::backend_name() const {
  if (!cpu_fallback_.empty()) return "cpu";
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
    if (node.root_move >= root_move_count)
      throw std::invalid_argument("a frontier node names a root move out of range");
  FrontierJob job{std::move(nodes), remaining, per_root_move, settings_.merge_transpositions};
  if (engine_ == Engine::CPU) return count_cpu(std::move(job), settings_, table_, root_move_count);
  const auto on_cpu_core = [&] {
    // A GPU's table size is no measure of the host's memory.
    PerftRequest on_host = settings_;
    on_host.hash_bytes = std::min(on_host.hash_bytes, default_hash_bytes());
    return count_cpu(std::move(job), on_host, table_, root_move_count);
  };
  // The frontiers of one work dir are alike: once one outgrew the pipeline, those as deep
  // would too, after the pipeline had set up (on a GPU: a level arena of most of its memory)
  // and counted until the overflow. Found on an H200: 1,024 shards of bare kings at depth
  // 40 had not finished in 85 s; the CPU core alone counts them in seconds.
  if (remaining >= cpu_core_from_remaining_) {
    cpu_fallback_ = outgrown_pipeline_;
    return on_cpu_core();
  }
  std::vector<u128> totals = on_pipeline_or_cpu_core(
      [&] {
        return count_pipeline(job, settings_, engine_ == Engine::CUDA, root_move_count, pipeline_table_, gpu_session_);
      },
      on_cpu_core, cpu_fallback_);
  if (!cpu_fallback_.empty()) {
    cpu_core_from_remaining_ = remaining;
    outgrown_pipeline_ = cpu_fallback_;
  }
  return totals;
}

StatsTotals FrontierCounter::count_stats(std::vector<FrontierNode> nodes, int remaining) {
  if (remaining < 0) throw std::invalid_argument("depth must be non-negative");
  for (FrontierNode& node : nodes) node.root_move = 0;
  PerftRequest stats_settings = settings_;
  stats_settings.stats = true;
  FrontierJob job{std::move(nodes), remaining, false, settings_.merge_transpositions};
  const auto on_cpu_core = [&] {
    PerftRequest on_host = stats_settings;  // a GPU's table size is no measure of the host's memory
    on_host.hash_bytes = std::min(on_host.hash_bytes, default_hash_bytes());
    return driver::count_stats_cpu(std::move(job), on_host, stats_table_);
  };
  if (engine_ == Engine::CPU || remaining < 2 || remaining >= cpu_core_from_remaining_) {
    if (engine_ != Engine::CPU && remaining >= cpu_core_from_remaining_) cpu_fallback_ = outgrown_pipeline_;
    return on_cpu_core();
  }
  const StatsTotals totals = on_pipeline_or_cpu_core(
      [&] {
        StatsTableUse use;
        return count_stats_pipeline(job, stats_settings, engine_ == Engine::CUDA, 1, stats_table_, use)[0];
      },
      on_cpu_core, cpu_fallback_);
  if (!cpu_fallback_.empty()) {
    cpu_core_from_remaining_ = remaining;
    outgrown_pipeline_ = cpu_fallback_;
  }
  return totals;
}

PerftReport run_perft(const PerftRequest& req) {
  if (req.depth < 0) throw std::invalid_argument("depth must be non-negative");
  FrontierCounter counter(req);  // statistics run on every backend

  PerftReport report;
  report.backend = counter.backend_name();
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Move> moves = root_moves(req.root);

  RootTotals totals;
  std::vector<StatsTotals> stats;
  if (req.stats && req.depth >= 1) {
    std::unique_ptr<StatsTable> pipeline_stats_table;
    if (!counter.on_cpu_core() && req.depth >= 2)
      stats = on_pipeline_or_cpu_core(
          [&] {
            return count_stats_pipeline(root_job(req), req, counter.on_gpu(), moves.size(), pipeline_stats_table,
                                        report.stats_table);
          },
          [&] {
            report.stats_table = {};
            return root_move_stats(req, moves, report.stats_table);
          },
          report.cpu_fallback);
    else stats = root_move_stats(req, moves, report.stats_table);
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
    report.cpu_fallback = counter.cpu_fallback();
  }
  if (!report.cpu_fallback.empty()) report.backend = "cpu";
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
