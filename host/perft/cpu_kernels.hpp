// The CPU backend's counting kernels, and bulk classification's, built once per instruction-
// set level and chosen once, at start-up, for the CPU the program runs on: AVX-512 (F, DQ,
// BW, VPOPCNTDQ and VBMI2, with GFNI) counts the last ply (or the moves of the positions
// classified) eight at once, AVX2 with BMI2 looks sliders up by PEXT, and the portable level
// (the library's own flags, x86-64-v2 by default) multiplies magics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perft/stats_table.hpp"
#include "perft/table.hpp"
#include "perftkit/classify.hpp"
#include "perftkit/position.hpp"
#include "perftkit/position_key.hpp"
#include "perftkit/stats.hpp"

namespace perftkit {

struct CpuKernels {
  const char* name;
  std::uint64_t (*perft)(const Position& pos, int depth);
  // Leaf count of pos's tree of `depth` plies, using and filling table.
  std::uint64_t (*perft_hashed)(const Position& pos, int depth, PerftTable& table, const KeySet& keys);
  // Adds the leaf statistics of pos's tree of `depth` plies to stats.
  void (*perft_stats)(const Position& pos, int depth, LeafStats& stats);
  // The same through table (subtrees of two plies or more), adding its use of the table to use.
  void (*perft_stats_hashed)(const Position& pos, int depth, StatsTable& table, const KeySet& keys, LeafStats& stats,
                             StatsTableUse& use);
  // out[i] = classify(positions[i], repetitions[i]) for i < n (classify_batch.hpp);
  // repetitions may be null.
  void (*classify_batch)(const Position* positions, const std::uint8_t* repetitions, std::size_t n,
                         Classification* out);
  // The children of pos, in the generator's order, as the level writes them for counting the
  // last ply (ChildBuffer): the fields counting reads are make_move()'s, the clocks may be
  // left at zero.
  std::vector<Position> (*children_for_counting)(const Position& pos);
};

// One level, fastest first in cpu_kernel_levels().
struct CpuKernelLevel {
  const CpuKernels* kernels;
  bool supported;  // this CPU (and its operating system) runs the level's instructions
};

// Every level this binary holds, fastest first.
std::vector<CpuKernelLevel> cpu_kernel_levels();

// The kernels every CPU count runs: the fastest level this CPU supports, or the one the
// environment variable PERFTKIT_CPU_KERNEL names (to compare levels on one machine). Throws
// UsageError when that names no level of this binary or one this CPU cannot run.
const CpuKernels& cpu_kernels();

// The levels' kernels; each is defined by a unit of its own (cpu_kernels_<level>.cpp).
extern const CpuKernels CPU_KERNELS_PORTABLE;
extern const CpuKernels CPU_KERNELS_AVX2_BMI2;
extern const CpuKernels CPU_KERNELS_AVX512;

}  // namespace perftkit
