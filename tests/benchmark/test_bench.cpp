// `perftkit bench` and `perftkit info`: the workload's published counts against the core,
// depth offsets, and the commands end to end (exit codes, signature, JSON).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "benchmark/workload.hpp"
#include "notation/fen_board.hpp"
#include "common/cuda_presence.hpp"
#include "support/cli_runner.hpp"
#include "perftkit/perft.hpp"
#include "support/perft_instances.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;

CommandResult run_binary(const std::string& args) { return testing_support::run_perftkit(args); }

bool has_cuda_device() { return cuda_device_present(); }

TEST(BenchWorkload, SignatureAtTheDefaultDepths) {
  const std::vector<BenchCase> workload = bench_workload(0);
  ASSERT_EQ(workload.size(), 6u);
  EXPECT_EQ(to_string_u128(bench_signature(workload)), "1451446453");
  EXPECT_EQ(workload[0].name, "start");
  EXPECT_EQ(workload[0].depth, 6);
}

TEST(BenchWorkload, EveryCoveredOffsetHasPublishedCounts) {
  for (int offset = BENCH_MIN_DEPTH_OFFSET; offset <= BENCH_MAX_DEPTH_OFFSET; ++offset)
    for (const BenchCase& c : bench_workload(offset)) EXPECT_GT(c.expected, 0u) << c.name << " offset " << offset;
  EXPECT_THROW(bench_workload(BENCH_MIN_DEPTH_OFFSET - 1), std::invalid_argument);
  EXPECT_THROW(bench_workload(BENCH_MAX_DEPTH_OFFSET + 1), std::invalid_argument);
}

// The table of published counts, checked against the core where that is cheap.
TEST(BenchWorkload, PublishedCountsMatchTheCore) {
  for (const BenchCase& c : bench_workload(BENCH_MIN_DEPTH_OFFSET))
    for (int depth = 1; depth <= 4; ++depth)
      EXPECT_EQ(to_string_u128(perft(c.root, depth)), to_string_u128(published_count(c.name, depth)))
          << c.name << " depth " << depth;
  EXPECT_EQ(published_count("start", 0), 0u);
  EXPECT_EQ(published_count("nowhere", 3), 0u);
}

TEST(BenchCommand, SmallWorkloadPassesAndWritesJson) {
  const std::filesystem::path json = std::filesystem::temp_directory_path() / "perftkit_test_bench.json";
  std::filesystem::remove(json);
  const CommandResult r =
      run_binary("bench --depth-offset -3 --repeats 2 --warmup 0 --backend cpu,pipeline-omp --json " + json.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("merging OFF"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("all backends match"), std::string::npos) << r.output;
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected = "\"expected_signature\":" + to_string_u128(bench_signature(bench_workload(-3)));
  EXPECT_NE(text.str().find(expected), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\"passed\":true"), std::string::npos);
  EXPECT_NE(text.str().find("\"merge_transpositions\":false"), std::string::npos);
  EXPECT_NE(text.str().find("\"commit\":"), std::string::npos);
  EXPECT_NE(text.str().find("\"cpu\":"), std::string::npos);
  EXPECT_NE(text.str().find("\"backend\":\"pipeline-omp\""), std::string::npos);
  std::filesystem::remove(json);
}

// The hashed backend counts the same cases with merging and a table: its signature is checked
// like any other, and its speed is labelled as time to result, apart from move generation.
TEST(BenchCommand, HashedBackendIsCheckedAndReportedApart) {
  const std::filesystem::path json = std::filesystem::temp_directory_path() / "perftkit_test_bench_hash.json";
  const CommandResult r =
      run_binary("bench --depth-offset -2 --repeats 1 --warmup 0 --backend cpu,cpu-hash --json " + json.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("all backends match"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("time to result: merging + hash, not move generation"), std::string::npos) << r.output;
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"backend\":\"cpu-hash\""), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\"measures\":\"time to result (merging and hash table)\""), std::string::npos);
  EXPECT_NE(text.str().find("\"measures\":\"move generation\""), std::string::npos);
  std::filesystem::remove(json);
}

TEST(BenchCommand, BadUsageExitsTwo) {
  EXPECT_EQ(run_binary("bench --depth-offset 9").exit_code, 2);
  EXPECT_EQ(run_binary("bench --backend nonsense").exit_code, 2);
  EXPECT_EQ(run_binary("bench --repeats 0").exit_code, 2);
  if (!has_cuda_device()) {
    EXPECT_EQ(run_binary("bench --backend cuda --depth-offset -4").exit_code, 2);
  }
}

TEST(InfoCommand, DescribesTheCpuAndTheDevices) {
  const CommandResult r = run_binary("info");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("CPU: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("BMI2: "), std::string::npos) << r.output;
  // The FEN board writer: the whole-board one exactly when this CPU can run it.
#if PERFTKIT_WHOLE_FEN_BOARD
  const bool whole = detail::cpu_writes_whole_fen_board();
#else
  const bool whole = false;
#endif
  const bool by_ranks = r.output.find("classify's FEN board writer: rank by rank (SSSE3)\n") != std::string::npos ||
                        r.output.find("classify's FEN board writer: square by square\n") != std::string::npos;
  EXPECT_EQ(r.output.find("classify's FEN board writer: whole board (AVX-512 VBMI2)\n") != std::string::npos, whole)
      << r.output;
  EXPECT_EQ(by_ranks, !whole) << r.output;
  const char* gpu_line = has_cuda_device() ? "GPU 0: " : "no CUDA device";
  EXPECT_NE(r.output.find(gpu_line), std::string::npos) << r.output;
  const CommandResult json = run_binary("info --json");
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"gpus\":["), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"fen_board_writer\":\""), std::string::npos) << json.output;
}

}  // namespace
}  // namespace perftkit
