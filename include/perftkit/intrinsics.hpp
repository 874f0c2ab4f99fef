// Bit intrinsics behind one name each: the device builtin under nvcc's device pass,
// the host builtin (BMI2 where compiled for it) otherwise.
#pragma once

#include <cstdint>

#include "perftkit/config.hpp"

#if !PERFTKIT_DEVICE_PASS && defined(__BMI2__)
#include <immintrin.h>
#define PERFTKIT_HAS_PEXT 1
#else
#define PERFTKIT_HAS_PEXT 0
#endif

namespace perftkit {
PERFTKIT_ISA_BEGIN

PERFTKIT_HD_INLINE int popcount(std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return __popcll(b);
#else
  return __builtin_popcountll(b);
#endif
}

// Index of the least significant set bit; b must be non-zero.
PERFTKIT_HD_INLINE int lsb(std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return __ffsll(static_cast<long long>(b)) - 1;
#else
  return __builtin_ctzll(b);
#endif
}

// Index of the most significant set bit; b must be non-zero.
PERFTKIT_HD_INLINE int msb(std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return 63 - __clzll(static_cast<long long>(b));
#else
  return 63 - __builtin_clzll(b);
#endif
}

#if PERFTKIT_HAS_PEXT
PERFTKIT_FORCEINLINE std::uint64_t pext(std::uint64_t b, std::uint64_t mask) { return _pext_u64(b, mask); }
#endif

PERFTKIT_ISA_END
}  // namespace perftkit
