// The CPU kernels for AVX2 with BMI1/BMI2 (Haswell, Zen and later): sliders looked up by PEXT.
// Compiled with those instructions (host/perft/CMakeLists.txt) and run only where the CPU has them.
#include "perft/cpu_kernel_unit.hpp"

namespace perftkit {

constinit const CpuKernels CPU_KERNELS_AVX2_BMI2 = unit_kernels("avx2_bmi2");

}  // namespace perftkit
