#include "cli/info_command.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/cli_common.hpp"
#include "common/json_writer.hpp"
#include "benchmark/machine_info.hpp"
#include "common/build_info.hpp"
#include "notation/fen_board.hpp"
#include "perft/cpu_kernels.hpp"

namespace perftkit {
namespace {

double gib(std::size_t bytes) { return static_cast<double>(bytes) / double(1ULL << 30); }

void print_text(const MachineInfo& m) {
  std::printf("perftkit %.*s (commit %.*s)\n", int(perftkit_version().size()), perftkit_version().data(),
              int(perftkit_commit().size()), perftkit_commit().data());
  std::printf("CPU: %s\n", m.cpu_model.c_str());
  std::printf("  %u logical CPUs", m.logical_cpus);
  if (m.physical_cores) std::printf(", %u physical cores", m.physical_cores);
  std::printf("\n  BMI2: %s; the portable code indexes sliders with %s\n", m.bmi2 ? "yes" : "no",
              m.pext ? "PEXT" : "magic multiplication");
  std::printf("  CPU perft kernels: %s (chosen for this CPU from:", m.cpu_kernel.c_str());
  const char* separator = " ";
  for (const CpuKernelLevel& level : cpu_kernel_levels()) {
    std::printf("%s%s%s", separator, level.kernels->name, level.supported ? "" : " (not on this CPU)");
    separator = ", ";
  }
  std::printf(")\n");
  std::printf("  classify's FEN board writer: %.*s\n", int(fen_board_writer_name().size()),
              fen_board_writer_name().data());
  std::printf("Pipeline: %s%s\n", m.pipeline_host.c_str(), m.cuda_built ? " and CUDA" : "");
  if (!m.cuda_built) {
    std::printf("GPU: no CUDA device (built without CUDA)\n");
    return;
  }
  if (!m.cuda_error.empty()) std::printf("GPU: device query failed: %s\n", m.cuda_error.c_str());
  else if (m.gpus.empty()) std::printf("GPU: no CUDA device\n");
  for (const GpuInfo& g : m.gpus)
    std::printf(
        "GPU %d: %s\n  %d SMs, %.1f GiB (%.1f GiB free), compute capability %d.%d, SM clock %d MHz, memory "
        "clock %d MHz\n",
        g.index, g.name.c_str(), g.sm_count, gib(g.total_memory), gib(g.free_memory), g.cc_major, g.cc_minor,
        g.clock_mhz, g.memory_clock_mhz);
}

void print_json(const MachineInfo& m) {
  JsonWriter json(std::cout);
  json.begin_object()
      .field("version", std::string(perftkit_version()))
      .field("commit", std::string(perftkit_commit()))
      .field("cpu", m.cpu_model)
      .field("logical_cpus", m.logical_cpus)
      .field("physical_cores", m.physical_cores)
      .field("bmi2", m.bmi2)
      .field("pext", m.pext)
      .field("cpu_kernel", m.cpu_kernel)
      .field("fen_board_writer", std::string(fen_board_writer_name()))
      .field("pipeline_host", m.pipeline_host)
      .field("cuda_built", m.cuda_built);
  if (!m.cuda_error.empty()) json.field("cuda_error", m.cuda_error);
  write_gpus_json(json, m.gpus);
  json.end_object();
}

}  // namespace

void add_info_command(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("info", "Show the CPU (model, cores, BMI2/PEXT) and the CUDA devices");
  cmd->add_flag("--json", *json, "Write the information as JSON on stdout");
  cmd->callback([json, &exit_code] {
    MachineInfo m = query_machine();
    m.cpu_kernel = cpu_kernels().name;
    if (*json) print_json(m);
    else print_text(m);
    exit_code = EXIT_OK;
  });
}

}  // namespace perftkit
