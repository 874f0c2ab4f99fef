// The portable CPU kernels: compiled with the library's own flags (x86-64-v2 unless
// PERFTKIT_NATIVE), sliders looked up by magic multiplication (by PEXT in a native BMI2 build).
#include "perft/cpu_kernel_unit.hpp"

namespace perftkit {

constinit const CpuKernels CPU_KERNELS_PORTABLE = unit_kernels(PERFTKIT_ISA_LABEL);

}  // namespace perftkit
