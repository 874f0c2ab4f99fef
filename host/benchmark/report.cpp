#include "benchmark/report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "common/json_writer.hpp"

namespace perftkit {
double BenchRow::median() const {
  if (seconds.empty()) return 0;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

double BenchRow::nodes_per_second() const {
  const double m = median();
  return m > 0 ? static_cast<double>(nodes) / m : 0;
}

bool BenchRun::backend_ok(const std::string& backend) const {
  for (const BenchRow& r : rows)
    if (r.backend == backend && !r.ok) return false;
  return signature(backend) == expected_signature;
}

u128 BenchRun::signature(const std::string& backend) const {
  u128 sum = 0;
  for (const BenchRow& r : rows)
    if (r.backend == backend) sum += r.nodes;
  return sum;
}

double BenchRun::seconds(const std::string& backend) const {
  double sum = 0;
  for (const BenchRow& r : rows)
    if (r.backend == backend) sum += r.median();
  return sum;
}

bool BenchRun::passed() const {
  for (const std::string& b : backends)
    if (!backend_ok(b)) return false;
  return true;
}

bool bench_row_shown(const BenchRun& run, const BenchRow& row) { return run.suites.empty() || !row.ok; }

void print_bench_header(std::ostream& out, const BenchRun& run) {
  const bool hashed = std::any_of(run.backends.begin(), run.backends.end(), bench_backend_hashed);
  out << "perftkit bench: transposition merging OFF (move generation only)"
      << (hashed ? ", except *-hash (merging and hash table: time to result)" : "") << "; depth offset "
      << run.depth_offset << "; median of " << run.repeats << " after " << run.warmup << " warm-up run"
      << (run.warmup == 1 ? "" : "s") << "; " << run.threads << " CPU thread" << (run.threads == 1 ? "" : "s") << "\n";
  out << "cpu: " << run.machine.cpu_model << " (" << run.machine.logical_cpus << " logical, load "
      << run.machine.load_average << "), CPU kernels " << run.machine.cpu_kernel;
  for (const GpuInfo& g : run.machine.gpus) out << "; gpu " << g.index << ": " << g.name;
  out << "; commit " << run.commit << "\n";
  for (const std::string& suite : run.suites) out << "suite: " << suite << "\n";
  if (!run.suites.empty()) out << "(suite workload: only mismatches are listed)\n";
  out << "\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-14s %-10s %5s %18s %10s %11s %8s  %s\n", "backend", "position", "depth", "nodes",
                "median s", "nodes/s", "spread", "check");
  out << line;
}

void print_bench_row(std::ostream& out, const BenchRow& row) {
  double lo = row.median(), hi = row.median();
  for (double s : row.seconds) lo = std::min(lo, s), hi = std::max(hi, s);
  const double spread = row.median() > 0 ? (hi - lo) / row.median() * 100 : 0;
  char line[200];
  std::snprintf(line, sizeof line, "%-14s %-10s %5d %18s %10.3f %11.4g %7.1f%%  %s\n", row.backend.c_str(),
                row.position.c_str(), row.depth, to_string_u128(row.nodes).c_str(), row.median(),
                row.nodes_per_second(), spread,
                row.ok ? "ok" : ("MISMATCH, expected " + to_string_u128(row.expected)).c_str());
  out << line << std::flush;
}

bool bench_backend_hashed(const std::string& backend) { return backend.ends_with("-hash"); }

void print_bench_summary(std::ostream& out, const BenchRun& run) {
  out << '\n';
  for (const std::string& b : run.backends) {
    const u128 signature = run.signature(b);
    const double seconds = run.seconds(b);
    std::size_t cases = 0;
    for (const BenchRow& r : run.rows) cases += r.backend == b;
    char line[200];
    std::snprintf(line, sizeof line, "%-14s %-10s %5s %18s %10.3f %11.4g", b.c_str(), "total", "",
                  to_string_u128(signature).c_str(), seconds,
                  seconds > 0 ? static_cast<double>(signature) / seconds : 0);
    out << line << "           signature " << (run.backend_ok(b) ? "ok" : "MISMATCH") << " (" << cases << " cases)"
        << (bench_backend_hashed(b) ? " time to result: merging + hash, not move generation" : "") << '\n';
  }
  out << "expected signature " << to_string_u128(run.expected_signature) << ": "
      << (run.passed() ? "all backends match" : "MISMATCH") << '\n';
}

void write_bench_json(std::ostream& out, const BenchRun& run) {
  JsonWriter json(out);
  json.begin_object()
      .field("tool", "perftkit bench")
      .field("date", run.date)
      .field("commit", run.commit)
      .field("merge_transpositions", false)  // every backend but the hashed ones (see "measures")
      .field("depth_offset", run.depth_offset)
      .field("repeats", run.repeats)
      .field("warmup", run.warmup)
      .field("threads", run.threads)
      .field("expected_signature", run.expected_signature)
      .field("passed", run.passed());
  json.key("suites").begin_array();
  for (const std::string& suite : run.suites) json.value(suite);
  json.end_array();
  const MachineInfo& m = run.machine;
  json.key("machine")
      .begin_object()
      .field("cpu", m.cpu_model)
      .field("logical_cpus", m.logical_cpus)
      .field("physical_cores", m.physical_cores)
      .field("bmi2", m.bmi2)
      .field("pext", m.pext)
      .field("cpu_kernel", m.cpu_kernel)
      .field("load_average", m.load_average);
  write_gpus_json(json, m.gpus);
  json.end_object();
  json.key("backends").begin_array();
  for (const std::string& b : run.backends) {
    const u128 signature = run.signature(b);
    const double seconds = run.seconds(b);
    std::size_t cases = 0;
    for (const BenchRow& r : run.rows) cases += r.backend == b;
    json.begin_object()
        .field("backend", b)
        .field("cases", cases)
        .field("signature", signature)
        .field("ok", run.backend_ok(b))
        .field("seconds", seconds)
        .field("nodes_per_second", seconds > 0 ? static_cast<double>(signature) / seconds : 0.0)
        .field("measures", bench_backend_hashed(b) ? "time to result (merging and hash table)" : "move generation")
        .end_object();
  }
  json.end_array();
  json.key("results").begin_array();
  for (const BenchRow& r : run.rows) {
    if (!bench_row_shown(run, r)) continue;
    json.begin_object()
        .field("backend", r.backend)
        .field("position", r.position)
        .field("fen", r.fen)
        .field("depth", r.depth)
        .field("nodes", r.nodes)
        .field("expected", r.expected)
        .field("ok", r.ok)
        .field("seconds_median", r.median())
        .field("nodes_per_second", r.nodes_per_second());
    json.key("seconds").begin_array();
    for (double s : r.seconds) json.value(s);
    json.end_array().end_object();
  }
  json.end_array().end_object();
}

}  // namespace perftkit
