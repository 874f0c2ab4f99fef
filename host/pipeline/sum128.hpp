// An unsigned 128-bit sum that host and device reduce alike: a plain pair of 64-bit words
// (no __int128 on the device side), with the 64 x 64 -> 128-bit product of a leaf's
// multiplicity and count.
#pragma once

#include <cstdint>

#include "perftkit/config.hpp"
#include "common/uint128.hpp"

namespace perftkit {

struct Sum128 {
  std::uint64_t lo;
  std::uint64_t hi;

  u128 value() const { return (u128(hi) << 64) | lo; }
};

// Exact while the true sum stays below 2^128.
struct Sum128Plus {
  PERFTKIT_HD Sum128 operator()(const Sum128& a, const Sum128& b) const {
    const std::uint64_t lo = a.lo + b.lo;
    return Sum128{lo, a.hi + b.hi + (lo < a.lo ? 1u : 0u)};
  }
};

PERFTKIT_HD_INLINE Sum128 wide_product(std::uint64_t a, std::uint64_t b) {
#if PERFTKIT_DEVICE_PASS
  return Sum128{a * b, __umul64hi(a, b)};
#else
  const u128 p = u128(a) * b;
  return Sum128{std::uint64_t(p), std::uint64_t(p >> 64)};
#endif
}

}  // namespace perftkit
