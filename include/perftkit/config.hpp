// Execution-space and inlining macros shared by every header of the chess core.
#pragma once

#if defined(__CUDACC__)
#define PERFTKIT_HD __host__ __device__
#define PERFTKIT_FORCEINLINE __forceinline__
#else
#define PERFTKIT_HD
#define PERFTKIT_FORCEINLINE inline __attribute__((always_inline))
#endif

// Functions the GPU needs are marked with PERFTKIT_HD_INLINE; nothing else in the core
// knows which side of the PCIe bus it runs on.
#define PERFTKIT_HD_INLINE PERFTKIT_HD PERFTKIT_FORCEINLINE

// True while compiling device code (the second nvcc pass).
#if defined(__CUDA_ARCH__)
#define PERFTKIT_DEVICE_PASS 1
#else
#define PERFTKIT_DEVICE_PASS 0
#endif
