// Kernel bodies of the CUDA backend as host+device callables over an index range: the GPU
// runs them from a grid-stride loop, the CPU can run the very same object in a plain loop.
#pragma once

#include <cstdint>

#include "perftkit/perft.hpp"

namespace perftkit::cuda {

// nodes[i] = perft(positions[i], depth).
struct PerftFunctor {
  const Position* positions;
  std::uint64_t* nodes;
  int depth;

  PERFTKIT_HD void operator()(std::uint64_t i) const { nodes[i] = perft(positions[i], depth); }
};

}  // namespace perftkit::cuda
