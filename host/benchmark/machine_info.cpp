#include "benchmark/machine_info.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <set>
#include <utility>

#include "common/build_info.hpp"
#include "pipeline/pipeline.hpp"
#include "common/json_writer.hpp"
#include "common/thread_count.hpp"
#include "perftkit/attacks.hpp"

#include "common/cuda_devices.hpp"

namespace perftkit {
namespace {

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t");
  const auto last = s.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// Reads the model, BMI2 and the physical cores from /proc/cpuinfo (Linux).
void read_cpuinfo(MachineInfo& info) {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::pair<std::string, std::string>> cores;
  std::string line, package = "0";
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "model name" && info.cpu_model.empty()) info.cpu_model = value;
    else if (key == "flags" && !info.bmi2) info.bmi2 = (" " + value + " ").find(" bmi2 ") != std::string::npos;
    else if (key == "physical id") package = value;
    else if (key == "core id") cores.insert({package, value});
  }
  info.physical_cores = static_cast<unsigned>(cores.size());
  if (info.cpu_model.empty()) info.cpu_model = "unknown";
}

}  // namespace

MachineInfo query_machine() {
  MachineInfo info;
  read_cpuinfo(info);
  info.logical_cpus = hardware_threads();
  info.pext = attack_tables().pext_indexed;
  if (std::ifstream load("/proc/loadavg"); load) load >> info.load_average;
  info.pipeline_host = pipeline_host_system();
  info.cuda_built = cuda::built();
  try {
    for (const cuda::DeviceInfo& d : cuda::devices())
      info.gpus.push_back({d.index, d.name, d.sm_count, d.total_memory, d.free_memory, d.cc_major, d.cc_minor,
                           d.clock_khz / 1000, d.memory_clock_khz / 1000});
  } catch (const std::exception& e) {
    info.cuda_error = e.what();
  }
  return info;
}

std::string source_commit() { return std::string(perftkit_commit()); }

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

void write_gpus_json(JsonWriter& json, const std::vector<GpuInfo>& gpus) {
  json.key("gpus").begin_array();
  for (const GpuInfo& g : gpus)
    json.begin_object()
        .field("index", g.index)
        .field("name", g.name)
        .field("sm_count", g.sm_count)
        .field("memory_bytes", static_cast<unsigned long long>(g.total_memory))
        .field("free_memory_bytes", static_cast<unsigned long long>(g.free_memory))
        .field("compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor))
        .field("clock_mhz", g.clock_mhz)
        .field("memory_clock_mhz", g.memory_clock_mhz)
        .end_object();
  json.end_array();
}

}  // namespace perftkit
