// Which level of CPU kernels runs: decided once, from what the CPU reports (CPUID, and the
// operating system's saving of the wider registers, as the compiler's runtime checks them).
#include "perft/cpu_kernels.hpp"

#include <cstdlib>
#include <string_view>

#include "common/errors.hpp"

namespace perftkit {
namespace {

#if PERFTKIT_HAVE_DISPATCHED_KERNELS
// The AVX2 level is compiled with AVX2, BMI1 and BMI2 on top of the portable level.
bool cpu_has_avx2_bmi2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
}

// The AVX-512 level adds AVX-512 F, DQ, BW, VPOPCNTDQ and VBMI2, and GFNI, to the AVX2 level
// (every CPU with VPOPCNTDQ but the Xeon Phi has the other three).
bool cpu_has_avx512() {
  return cpu_has_avx2_bmi2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vpopcntdq") &&
         __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("gfni");
}
#endif

const CpuKernels& choose_cpu_kernels() {
  // The dispatched levels read the PEXT-ordered attack tables, which only portable code may
  // build (attacks.hpp): naming this builder makes it run at start-up.
  static_cast<void>(&detail::host_attack_table_builder<true>);
  const std::vector<CpuKernelLevel> levels = cpu_kernel_levels();
  const char* asked = std::getenv("PERFTKIT_CPU_KERNEL");
  if (!asked || !*asked) {
    for (const CpuKernelLevel& level : levels)
      if (level.supported) return *level.kernels;
  }
  std::string names;
  for (const CpuKernelLevel& level : levels) {
    if (level.kernels->name == std::string_view(asked)) {
      if (!level.supported)
        throw UsageError("PERFTKIT_CPU_KERNEL=" + std::string(asked) + ": this CPU cannot run that level");
      return *level.kernels;
    }
    names += names.empty() ? "" : ", ";
    names += level.kernels->name;
  }
  throw UsageError("PERFTKIT_CPU_KERNEL=" + std::string(asked) + ": not a level of this binary (" + names + ")");
}

}  // namespace

std::vector<CpuKernelLevel> cpu_kernel_levels() {
  std::vector<CpuKernelLevel> levels;
#if PERFTKIT_HAVE_DISPATCHED_KERNELS
  levels.push_back({&CPU_KERNELS_AVX512, cpu_has_avx512()});
  levels.push_back({&CPU_KERNELS_AVX2_BMI2, cpu_has_avx2_bmi2()});
#endif
  levels.push_back({&CPU_KERNELS_PORTABLE, true});
  return levels;
}

const CpuKernels& cpu_kernels() {
  static const CpuKernels& chosen = choose_cpu_kernels();
  return chosen;
}

}  // namespace perftkit
