// The hashed recursion runs in the CPU kernels chosen for this CPU (cpu_kernel_unit.hpp).
#include "perft/hashed_perft.hpp"

#include "perft/cpu_kernels.hpp"

namespace perftkit {

std::uint64_t perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys) {
  return cpu_kernels().perft_hashed(pos, depth, table, keys);
}

}  // namespace perftkit
