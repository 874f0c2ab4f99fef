// Exit codes that mean one thing each (#16): 3 when the machine fails the command (a full
// disk, no memory), 130 when it is interrupted, and `classify -o FILE` never leaving a row cut
// in the middle: FILE appears whole when the command ends, or not at all.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "child_process.hpp"
#include "cli_runner.hpp"
#include "sanitized_build.hpp"
#include "scratch_dir.hpp"
#include "test_paths.hpp"

namespace perftkit {
namespace {

using testing_support::ChildProcess;
using testing_support::CommandResult;
using testing_support::run_perftkit;
using testing_support::run_shell;
using testing_support::ScratchDir;

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Files in dir whose name holds ".partial." (classify's rows before they are complete).
int partial_files_in(const std::string& dir) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().find(".partial.") != std::string::npos) ++n;
  return n;
}

// Waits up to 10 s for pred; true when it held.
template <typename Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

TEST(ExitCodes, AFullDiskIsARuntimeFailure) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string fens = std::string(test_paths::test_data_dir()) + "/classify_lines.txt";
  const CommandResult result = run_perftkit("classify '" + fens + "' -o /dev/full");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("No space left on device"), std::string::npos) << result.output;
}

TEST(ExitCodes, RunningOutOfMemoryIsARuntimeFailure) {
  if (PERFTKIT_TEST_SANITIZED) GTEST_SKIP() << "a sanitizer's shadow memory needs more address space than the limit";
  // A 400 MB address space cannot hold a 2 GB table (perft 9 can fill more: the table is not
  // cut to what the depth needs, as a shallower perft's would be).
  const CommandResult result = run_shell("ulimit -v 400000 && exec '" + std::string(test_paths::perftkit_binary()) +
                                         "' perft --depth 9 --hash 2048 --threads 1");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("out of memory"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("std::"), std::string::npos) << "no raw exception text: " << result.output;
}

TEST(ExitCodes, AnUnwritableOutputFolderIsBadInput) {
  const CommandResult result = run_perftkit("classify -o /nonexistent-folder/out.csv < /dev/null");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("cannot write '/nonexistent-folder/out.csv': No such file or directory"),
            std::string::npos)
      << result.output;
}

TEST(ExitCodes, ClassifyWritesTheOutputFileWholeWhenItEnds) {
  const ScratchDir dir("exit-whole");
  const std::string fens = std::string(test_paths::test_data_dir()) + "/classify_lines.txt";
  const CommandResult result = run_perftkit("classify '" + fens + "' -o '" + dir / "out.csv" + "'");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const std::string rows = contents(dir / "out.csv");
  ASSERT_EQ(rows.rfind("source,fen,", 0), 0u) << rows;
  EXPECT_EQ(rows.back(), '\n');
  EXPECT_EQ(partial_files_in(dir.path()), 0);
}

// classify reads a named pipe that the test keeps open, so it is mid-run for sure when
// Ctrl-C arrives: it exits 130, its partial rows are gone and the old FILE is untouched.
TEST(ExitCodes, InterruptedClassifyExits130AndLeavesTheOldFileAlone) {
  const ScratchDir dir("exit-interrupt");
  const std::string fifo = dir / "positions.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int writer = ::open(fifo.c_str(), O_RDWR);  // O_RDWR: opening does not wait for the reader
  ASSERT_GE(writer, 0);
  const std::string some_positions = "startpos\n8/8/8/8/8/8/8/K6k w - - 0 1\n";
  ASSERT_EQ(::write(writer, some_positions.data(), some_positions.size()), ssize_t(some_positions.size()));
  { std::ofstream(dir / "out.csv") << "the previous run's rows\n"; }

  ChildProcess classify({"classify", fifo, "-o", dir / "out.csv"}, dir / "log.txt");
  ASSERT_GT(classify.pid(), 0);
  EXPECT_TRUE(eventually([&] { return partial_files_in(dir.path()) == 1; })) << contents(dir / "log.txt");
  ::kill(classify.pid(), SIGINT);
  const int status = classify.wait();
  ::close(writer);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130) << contents(dir / "log.txt");
  EXPECT_NE(contents(dir / "log.txt").find("interrupted"), std::string::npos);
  EXPECT_EQ(contents(dir / "out.csv"), "the previous run's rows\n");
  EXPECT_EQ(partial_files_in(dir.path()), 0);
}

TEST(ExitCodes, InterruptedPerftExits130) {
  const ScratchDir dir("exit-perft");
  ChildProcess perft({"perft", "--depth", "12", "--threads", "1"}, dir / "log.txt");
  ASSERT_GT(perft.pid(), 0);
  EXPECT_TRUE(eventually([&] { return contents(dir / "log.txt").find("hash") != std::string::npos; }))
      << contents(dir / "log.txt");
  ::kill(perft.pid(), SIGINT);
  const int status = perft.wait();
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130) << contents(dir / "log.txt");
}

}  // namespace
}  // namespace perftkit
