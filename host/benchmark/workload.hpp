// The fixed benchmark workload: the six positions of the Chess Programming Wiki's perft page
// at fixed depths, with their published counts, so every run checks its own answer.
#pragma once

#include <string>
#include <vector>

#include "perftkit/position.hpp"
#include "common/uint128.hpp"

namespace perftkit {

struct BenchCase {
  std::string name;  // "start", "kiwipete", "position3" ... "position6"
  std::string fen;
  Position root{};
  int depth = 0;
  u128 expected = 0;  // the published count
};

// Depths of the workload at offset 0: each about 0.3-2 s for the CPU backend on one core of a
// current x86 server (the next depth is 20-40 times more).
inline constexpr int BENCH_DEPTHS[] = {6, 5, 7, 6, 5, 5};

// Offsets the published counts cover for every position.
inline constexpr int BENCH_MIN_DEPTH_OFFSET = -4;
inline constexpr int BENCH_MAX_DEPTH_OFFSET = 2;

// The workload with every depth moved by depth_offset (GPUs take +1 or +2). Throws
// std::invalid_argument when an offset leaves a depth without a published count.
std::vector<BenchCase> bench_workload(int depth_offset);

// The determinism signature: the sum of the workload's published counts.
u128 bench_signature(const std::vector<BenchCase>& workload);

// The published count of a workload position at any depth it lists (for tests), or 0.
u128 published_count(const std::string& name, int depth);

// A workload from perft suite files instead: every listed (position, depth) whose expected
// count is at most max_nodes, depth at most max_depth; named "file:line Dn". Throws
// std::invalid_argument for an unreadable file, a malformed line or an invalid position.
std::vector<BenchCase> suite_workload(const std::vector<std::string>& files, u128 max_nodes, int max_depth);

}  // namespace perftkit
