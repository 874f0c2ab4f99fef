// What a benchmark ran on: the CPU (model, cores, BMI2 and whether the core uses PEXT), the
// CUDA devices, and the source commit. For `perftkit info` and the bench's JSON.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace perftkit {

class JsonWriter;

struct GpuInfo {
  int index = 0;
  std::string name;
  int sm_count = 0;
  std::size_t total_memory = 0, free_memory = 0;  // bytes
  int cc_major = 0, cc_minor = 0;
  int clock_mhz = 0, memory_clock_mhz = 0;
};

struct MachineInfo {
  std::string cpu_model;  // "model name" of /proc/cpuinfo, else "unknown"
  unsigned logical_cpus = 0;
  unsigned physical_cores = 0;  // distinct (package, core) pairs; 0 when unknown
  bool bmi2 = false;            // the CPU reports BMI2
  bool pext = false;            // this build's portable core indexes sliders with PEXT
  std::string cpu_kernel;       // the CPU perft kernels' level in use (set by the caller: perft/cpu_kernels.hpp)
  bool cuda_built = false;      // built with the CUDA backend
  std::string cuda_error;       // why the device query failed, if it did
  std::vector<GpuInfo> gpus;
  std::string pipeline_host;  // the frontier pipeline's host system: "OpenMP", or "sequential" (no OpenMP)
  double load_average = -1;   // 1-minute load average when queried (/proc/loadavg), -1 unknown
};

// Queries the CPU and, when built with CUDA, every device (creates a context on each;
// waits for the GPU). Never throws: a failed device query is reported in cuda_error.
MachineInfo query_machine();

// Writes "gpus": [...] (one object per device) into the object json is in.
void write_gpus_json(JsonWriter& json, const std::vector<GpuInfo>& gpus);

// The commit this binary was built from (common/build_info.hpp), never the working
// directory's.
std::string source_commit();

// The current time in UTC as ISO 8601 ("2025-11-30T10:42:00Z").
std::string utc_timestamp();

}  // namespace perftkit
