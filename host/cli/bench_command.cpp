#include "cli/bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <utility>

#include "benchmark/report.hpp"
#include "benchmark/workload.hpp"
#include "cli/cli_common.hpp"
#include "common/cuda_presence.hpp"
#include "perft/cpu_kernels.hpp"
#include "perft/hash_sizing.hpp"
#include "perft/driver.hpp"
#include "common/system_memory.hpp"

namespace perftkit {
namespace {

struct BenchOptions {
  std::vector<std::string> backends{"cpu"};
  int repeats = 3;
  int warmup = 1;
  int depth_offset = 0;
  unsigned threads = 0;
  std::string json_file;
  std::vector<std::string> suites;
  std::uint64_t max_nodes = 10'000'000;
  int max_depth = 64;
};

// A backend under test: counts one workload case, merging off.
struct BenchBackend {
  std::string name;
  std::function<u128(const BenchCase&)> count;
};

BenchBackend driver_backend(const std::string& name, Backend backend, unsigned threads) {
  return {name, [backend, threads](const BenchCase& c) {
            PerftRequest req;
            req.root = c.root;
            req.depth = c.depth;
            req.backend = backend;
            req.threads = threads;
            req.merge_transpositions = false;
            return run_perft(req).nodes;
          }};
}

// Time to result, not move generation: merging on and a transposition table sized for the
// case (a fresh one per run), as `perftkit perft` runs by default. The size is worked out on
// a case's first run only (perft sizes its table before its clock starts, too).
BenchBackend hashed_backend(const std::string& name, unsigned threads) {
  auto table_bytes = std::make_shared<std::map<std::pair<std::string, int>, std::size_t>>();
  return {name, [threads, table_bytes](const BenchCase& c) {
            auto [entry, added] = table_bytes->try_emplace({c.fen, c.depth}, 0);
            if (added) entry->second = std::min(default_hash_bytes(), suggested_hash_bytes(c.root, c.depth));
            PerftRequest req;
            req.root = c.root;
            req.depth = c.depth;
            req.backend = Backend::CPU;
            req.threads = threads;
            req.hash_bytes = entry->second;
            return run_perft(req).nodes;
          }};
}

// The backends named on the command line, in order; "all" is every backend usable here.
std::vector<BenchBackend> resolve_backends(const std::vector<std::string>& names, unsigned threads) {
  const bool gpu = cuda_device_present();
  std::vector<std::string> wanted;
  for (const std::string& n : names) {
    if (n == "all") {
      wanted.insert(wanted.end(), {"cpu", "pipeline-omp", "cpu-hash"});
      if (gpu) wanted.insert(wanted.end(), {"cuda", "pipeline-cuda"});
    } else if (n == "pipeline") {
      wanted.push_back(gpu ? "pipeline-cuda" : "pipeline-omp");
    } else {
      wanted.push_back(n);
    }
  }
  std::vector<BenchBackend> backends;
  for (const std::string& n : wanted) {
    if (std::any_of(backends.begin(), backends.end(), [&](const BenchBackend& b) { return b.name == n; })) continue;
    if (n == "cpu") {
      backends.push_back(driver_backend(n, Backend::CPU, threads));
    } else if (n == "cpu-hash") {
      backends.push_back(hashed_backend(n, threads));
    } else if (n == "cuda") {
      if (!gpu) throw UsageError("--backend cuda: no CUDA device is available (or perftkit was built without CUDA)");
      backends.push_back(driver_backend(n, Backend::CUDA, threads));
    } else if (n == "pipeline-omp" || n == "pipeline-cuda") {
      // The frontier pipeline as `perft --backend pipeline` (OpenMP) and `--backend cuda` run
      // it: through run_perft(), to pipeline_count_frontier.
      const bool on_gpu = n == "pipeline-cuda";
      if (on_gpu && !gpu) throw UsageError("--backend pipeline-cuda: no CUDA device is available");
      backends.push_back(driver_backend(n, on_gpu ? Backend::CUDA : Backend::PIPELINE, threads));
    } else {
      throw UsageError("--backend: unknown backend '" + n +
                       "' (cpu, cpu-hash, cuda, pipeline, pipeline-omp, pipeline-cuda, all)");
    }
  }
  return backends;
}

// Runs the case warmup + repeats times; every run's count is checked, the repeats timed.
BenchRow run_case(const BenchBackend& backend, const BenchCase& c, const BenchOptions& opt) {
  BenchRow row{backend.name, c.name, c.fen, c.depth, c.expected, 0, true, {}};
  for (int i = 0; i < opt.warmup + opt.repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    row.nodes = backend.count(c);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (row.nodes != c.expected) row.ok = false;
    if (i >= opt.warmup) row.seconds.push_back(seconds);
  }
  return row;
}

int run(const BenchOptions& opt) {
  std::vector<BenchCase> workload;
  try {
    workload = opt.suites.empty() ? bench_workload(opt.depth_offset)
                                  : suite_workload(opt.suites, opt.max_nodes, opt.max_depth);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (workload.empty()) throw UsageError("--suite: no (position, depth) within --max-nodes and --max-depth");
  const std::vector<BenchBackend> backends = resolve_backends(opt.backends, opt.threads);

  BenchRun bench;
  bench.date = utc_timestamp();
  bench.commit = source_commit();
  bench.machine = query_machine();
  bench.machine.cpu_kernel = cpu_kernels().name;
  bench.depth_offset = opt.depth_offset;
  bench.repeats = opt.repeats;
  bench.warmup = opt.warmup;
  bench.threads = threads_or_all_cores(opt.threads);
  bench.expected_signature = bench_signature(workload);
  bench.suites = opt.suites;
  for (const BenchBackend& b : backends) bench.backends.push_back(b.name);

  // With --json -, stdout holds the JSON alone and the table goes to stderr.
  std::ostream& table = opt.json_file == "-" ? std::cerr : std::cout;
  print_bench_header(table, bench);
  for (const BenchBackend& b : backends)
    for (const BenchCase& c : workload) {
      bench.rows.push_back(run_case(b, c, opt));
      if (bench_row_shown(bench, bench.rows.back())) print_bench_row(table, bench.rows.back());
    }
  print_bench_summary(table, bench);

  if (!opt.json_file.empty()) {
    if (opt.json_file == "-") {
      write_bench_json(std::cout, bench);
    } else {
      std::ofstream out(opt.json_file);
      if (!out) throw UsageError("--json: cannot write " + opt.json_file);
      write_bench_json(out, bench);
      if (!out.flush()) throw RuntimeFailure("--json: cannot write " + opt.json_file + ": " + std::strerror(errno));
      std::fprintf(stderr, "wrote %s\n", opt.json_file.c_str());
    }
  }
  return bench.passed() ? EXIT_OK : EXIT_CHECK_FAILED;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Fixed perft workload (six standard positions, merging off) per backend: median times, nodes/s and a "
      "determinism signature checked against the published counts; cpu-hash times the same cases with "
      "merging and a hash table (time to result, reported apart)");
  cmd->add_option("--backend", opt->backends,
                  "cpu | cpu-hash | cuda | pipeline (CUDA when a device is present, else OpenMP) | pipeline-omp | "
                  "pipeline-cuda | all; several separated by commas")
      ->delimiter(',')
      ->default_str("cpu");
  cmd->add_option("--repeats", opt->repeats, "Timed runs per position (the median is reported)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--warmup", opt->warmup, "Untimed runs per position first")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  cmd->add_option("--depth-offset", opt->depth_offset,
                  "Add this to every depth (GPUs: 1 or 2); published counts cover " +
                      std::to_string(BENCH_MIN_DEPTH_OFFSET) + ".." + std::to_string(BENCH_MAX_DEPTH_OFFSET))
      ->capture_default_str();
  cmd->add_option("-t,--threads", opt->threads, "CPU threads (default, or 0: all cores)")->check(CLI::Range(0u, 4096u));
  CLI::Option* json =
      cmd->add_option("--json", opt->json_file,
                      "The results as JSON on stdout, the table then on stderr (as every --json); with FILE, "
                      "written there as well as the table")
          ->expected(0, 1)
          ->option_text("[FILE]");
  cmd->add_option("--suite", opt->suites,
                  "Instead of the fixed workload, every (position, depth) of these perft suite files, each checked "
                  "against its listed count")
      ->check(CLI::ExistingFile);
  cmd->add_option("--max-nodes", opt->max_nodes, "With --suite: skip depths expecting more nodes")
      ->capture_default_str();
  cmd->add_option("--max-depth", opt->max_depth, "With --suite: skip deeper depths")->check(CLI::Range(1, 64));
  cmd->callback([opt, json, &exit_code] {
    if (json->count() > 0 && opt->json_file.empty()) opt->json_file = "-";  // a bare --json: stdout
    exit_code = run(*opt);
  });
}

}  // namespace perftkit
