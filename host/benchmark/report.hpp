// Results of `perftkit bench` and their two forms: the text table and the JSON record.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "benchmark/machine_info.hpp"
#include "common/uint128.hpp"

namespace perftkit {

// One (backend, position) of the workload: every run's time, and the count it gave.
struct BenchRow {
  std::string backend;
  std::string position;
  std::string fen;
  int depth = 0;
  u128 expected = 0;
  u128 nodes = 0;               // the count of the last run
  bool ok = true;               // every run (warm-up included) gave the published count
  std::vector<double> seconds;  // the timed repeats
  double median() const;
  double nodes_per_second() const;
};

struct BenchRun {
  std::string date, commit;
  MachineInfo machine;
  int depth_offset = 0, repeats = 0, warmup = 0;
  unsigned threads = 0;
  std::vector<std::string> backends;
  std::vector<BenchRow> rows;
  u128 expected_signature = 0;
  std::vector<std::string> suites;  // a suite workload (rows are then printed and written only on a mismatch)

  // The determinism signature of a backend: the sum of its counts.
  u128 signature(const std::string& backend) const;
  // Every count of the backend matched, and so did its signature.
  bool backend_ok(const std::string& backend) const;
  // Sum of the backend's median times.
  double seconds(const std::string& backend) const;
  bool passed() const;
};

// True for a backend that merges transpositions and uses a hash table ("cpu-hash"): its
// nodes/s is time to result, not move-generation speed, and is reported apart.
bool bench_backend_hashed(const std::string& backend);

// True when a row is shown: every row of the fixed workload, mismatches of a suite workload.
bool bench_row_shown(const BenchRun& run, const BenchRow& row);
// The table row of one result, as printed when it completes.
void print_bench_row(std::ostream& out, const BenchRow& row);
void print_bench_header(std::ostream& out, const BenchRun& run);
// Per backend: total nodes, time, nodes/s and the signature check.
void print_bench_summary(std::ostream& out, const BenchRun& run);
void write_bench_json(std::ostream& out, const BenchRun& run);

}  // namespace perftkit
