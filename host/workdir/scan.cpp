#include "workdir/scan.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "common/durable_file.hpp"
#include "workdir/shard_claims.hpp"

namespace perftkit {
namespace {

// Length of the union of the intervals: the time some worker was busy.
double covered_seconds(std::vector<std::pair<double, double>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double covered = 0, end = -1e300;
  for (const auto& [from, to] : intervals) {
    if (to <= end) continue;
    covered += to - std::max(from, end);
    end = to;
  }
  return covered;
}

// Files in results/ that are no shard's result name: never counted, reported.
void find_strays(const WorkDir& dir, WorkScan& scan) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir.results_dir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (is_temporary_file_name(name)) continue;
    bool shard_result = name.size() == 13 && name.ends_with(".result");
    if (shard_result) {
      const unsigned long id = std::strtoul(name.substr(0, 6).c_str(), nullptr, 10);
      shard_result = name == WorkDir::shard_name(std::uint32_t(id)) + ".result" && id < dir.shard_count();
    }
    if (!shard_result) scan.problems.push_back("results/" + name + ": not the result of any shard of this run");
  }
}

}  // namespace

double WorkScan::eta_seconds() const {
  if (done == shards) return 0;
  if (done == 0 || busy_seconds <= 0) return -1;
  return double(shards - done) * busy_seconds / double(done);
}

WorkScan scan_work_dir(const WorkDir& dir, double claim_timeout_seconds) {
  WorkScan scan;
  scan.shards = dir.shard_count();
  std::vector<std::pair<double, double>> busy;
  for (std::uint32_t id = 0; id < scan.shards; ++id) {
    const ResultCheck check = dir.check_result(id);
    if (check.state == ResultState::VALID) {
      ++scan.done;
      scan.nodes += check.result.nodes;
      if (check.result.stats) scan.stats += *check.result.stats;
      scan.positions_done += check.result.positions;
      scan.worker_seconds += check.result.seconds;
      busy.emplace_back(check.result.finished - check.result.seconds, check.result.finished);
      continue;
    }
    if (check.state == ResultState::CORRUPT) {
      ++scan.corrupt;
      scan.corrupt_ids.push_back(id);
      scan.problems.push_back("shard " + std::to_string(id) + ": result not counted: " + check.problem);
    } else {
      ++scan.missing;
      scan.missing_ids.push_back(id);
    }
    if (const std::optional<ClaimInfo> claim = read_claim(dir, id))
      ++(claim_is_stale(*claim, claim_timeout_seconds) ? scan.stale_claims : scan.in_flight);
  }
  find_strays(dir, scan);
  scan.busy_seconds = covered_seconds(busy);
  for (const auto& [from, to] : busy) {
    scan.first_start = scan.first_start == 0 ? from : std::min(scan.first_start, from);
    scan.last_finish = std::max(scan.last_finish, to);
  }
  return scan;
}

}  // namespace perftkit
