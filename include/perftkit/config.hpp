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

// The instruction set a unit is compiled for, as the name of an inline namespace around every
// function of the core. A program may hold units compiled for several (the CPU backend's
// kernels are built once per level and chosen at start-up, host/perft/cpu_kernels.hpp): each
// level's copies of the core's functions then have names of their own, so the linker never
// hands a unit built for an older CPU the copy that another unit built with newer instructions.
// The data types the levels exchange (Position, Move, keys, statistics) stay outside.
// PERFTKIT_ISA_LABEL names the level for people (perftkit info).
#if defined(__CUDACC__)
#define PERFTKIT_ISA isa_nvcc
#define PERFTKIT_ISA_LABEL "nvcc"
#elif defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VPOPCNTDQ__)
#define PERFTKIT_ISA isa_avx512
#define PERFTKIT_ISA_LABEL "avx512"
#elif defined(__AVX2__) && defined(__BMI2__)
#define PERFTKIT_ISA isa_avx2_bmi2
#define PERFTKIT_ISA_LABEL "avx2_bmi2"
#elif defined(__POPCNT__)
#define PERFTKIT_ISA isa_popcnt
#define PERFTKIT_ISA_LABEL "x86-64-v2"
#else
#define PERFTKIT_ISA isa_baseline
#define PERFTKIT_ISA_LABEL "generic"
#endif
#define PERFTKIT_ISA_BEGIN inline namespace PERFTKIT_ISA {
#define PERFTKIT_ISA_END }
