// The CPU kernels for AVX-512 F, DQ, BW, VPOPCNTDQ and VBMI2 with GFNI (Ice Lake, Zen 4
// and later): the last ply's positions written and counted eight at once, sliders looked up
// by PEXT. Compiled with those instructions (host/perft/CMakeLists.txt) and run only where
// the CPU has them.
#include "perft/cpu_kernel_unit.hpp"

namespace perftkit {

constinit const CpuKernels CPU_KERNELS_AVX512 = unit_kernels("avx512");

}  // namespace perftkit
