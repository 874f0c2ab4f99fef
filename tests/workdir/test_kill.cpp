// The acceptance test: a --work-dir perft killed with SIGKILL at five random moments
// (the first during the split, the others at random points of the counting), resumed each
// time, ends with the exact count and every shard counted once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "support/child_process.hpp"
#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"

namespace {

using perftkit::testing_support::ChildProcess;
using perftkit::testing_support::ScratchDir;

// Result files written so far (temporary files of a write in progress left out).
std::size_t results_written(const std::string& work) {
  std::size_t count = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(work + "/results", ec)) {
    const std::string name = entry.path().filename().string();
    count += name.ends_with(".result") && !name.starts_with('.');
  }
  return count;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `perft --depth depth --work-dir` and kills it five times: once 0-40 ms after the
// start, then four times when the results reach random counts (plus 0-30 ms), resuming
// after each kill; the sixth run must finish with `expected`.
void kill_and_resume(int depth, std::size_t shards, const std::string& threads, const char* expected) {
  const ScratchDir dir("kill-d" + std::to_string(depth));
  const std::string work = dir / "run";
  const std::string log = dir / "log";
  const std::vector<std::string> args{
      "perft",  "--depth", std::to_string(depth), "--shards", std::to_string(shards), "--threads", threads,
      "--hash", "64",      "--backend",           "cpu",      "--work-dir",           work};
  const unsigned seed = std::random_device{}();
  std::mt19937 random(seed);
  std::set<std::size_t> targets;
  std::uniform_int_distribution<std::size_t> target(shards / 10, shards * 8 / 10);
  while (targets.size() < 4) targets.insert(target(random));
  std::uniform_int_distribution<int> jitter_ms(0, 30);
  SCOPED_TRACE("seed " + std::to_string(seed));

  {
    ChildProcess first(args, log);
    ASSERT_GT(first.pid(), 0);
    const int delay_ms = std::uniform_int_distribution<int>(0, 40)(random);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    EXPECT_TRUE(first.kill_now()) << "the first run ended before its kill\n" << read_text(log);
    std::printf("kill 1: %d ms after the start, %zu of %zu results written\n", delay_ms, results_written(work), shards);
  }
  int kill_number = 1;
  for (std::size_t goal : targets) {
    ChildProcess run(args, log);
    ASSERT_GT(run.pid(), 0);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(10);
    while (results_written(work) < goal && run.running() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(jitter_ms(random)));
    const std::size_t before_kill = results_written(work);
    ASSERT_TRUE(run.kill_now()) << "the run ended before its kill at " << goal << " results\n" << read_text(log);
    EXPECT_LT(before_kill, shards) << "the kill did not land mid-run";
    std::printf("kill %d: at %zu results (target %zu), %zu written after the kill\n", ++kill_number, before_kill, goal,
                results_written(work));
  }

  const std::size_t done_before_last = results_written(work);
  ChildProcess last(args, log);
  const int status = last.wait();
  const std::string output = read_text(log);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find(std::string("Nodes searched: ") + expected + "\n"), std::string::npos) << output;
  EXPECT_LT(done_before_last, shards);

  const auto reduced = perftkit::testing_support::run_perftkit("reduce " + work);
  EXPECT_EQ(reduced.exit_code, 0) << reduced.output;
  EXPECT_NE(reduced.output.find("shards: " + std::to_string(shards) +
                                ", each counted once\nNodes searched: " + expected + "\n"),
            std::string::npos)
      << reduced.output;
  std::size_t claims_left = 0;
  for (const auto& entry : std::filesystem::directory_iterator(work + "/claims"))
    claims_left += entry.path().extension() == ".claim";
  EXPECT_EQ(claims_left, 0u);
}

TEST(WorkDirKill, StartPositionPerft7SurvivesFiveKills) { kill_and_resume(7, 256, "2", "3195901860"); }

// Minutes on two cores: run by `ctest -L slow` (PERFTKIT_FULL_DEPTH=1).
TEST(WorkDirKill, FullDepthStartPositionPerft8SurvivesFiveKills) {
  if (!std::getenv("PERFTKIT_FULL_DEPTH")) GTEST_SKIP() << "set PERFTKIT_FULL_DEPTH=1 to run perft 8";
  kill_and_resume(8, 1024, "2", "84998978956");
}

}  // namespace
