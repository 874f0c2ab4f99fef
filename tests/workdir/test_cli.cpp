// `perft --work-dir`, `status`, `reduce` and `work` end to end: resuming, damaged results and
// shards, refusing to mix runs, array workers, concurrent workers and stale claims.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"
#include "support/test_paths.hpp"

namespace {

using perftkit::testing_support::CommandResult;
using perftkit::testing_support::ScratchDir;

CommandResult run(const std::string& args) { return perftkit::testing_support::run_perftkit(args); }

bool has(const CommandResult& r, const std::string& text) { return r.output.find(text) != std::string::npos; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// Start position perft 5 in 40 shards, on the CPU with a small table.
const std::string PERFT5 = "perft --depth 5 --shards 40 --threads 2 --hash 16 --backend cpu --work-dir ";

// --progress on a work dir: the shards done out of the run's, as one line rewritten (here,
// off a terminal, a line every few seconds and a last one with the time taken), not a line
// per shard (#65). A resumed run starts from the shards already done.
TEST(WorkDirCli, ProgressShowsShardsDoneNotALinePerShard) {
  const ScratchDir dir("progress");
  const std::string work = dir / "run";
  const CommandResult first = run(PERFT5 + work + " --progress");
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_TRUE(has(first, "perft 5: 40 of 40 shards in ")) << first.output;
  EXPECT_FALSE(std::regex_search(first.output, std::regex("shard [0-9]+/40"))) << first.output;
  const CommandResult quiet = run(PERFT5 + dir / "quiet");  // off a terminal, without --progress
  EXPECT_FALSE(has(quiet, " shards in ")) << quiet.output;

  std::filesystem::remove(work + "/results/000003.result");
  std::filesystem::remove(work + "/results/000007.result");
  const CommandResult resumed = run("work " + work + " --progress --threads 1 --hash 16");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(has(resumed, "perft 5: 40 of 40 shards in ")) << resumed.output;
  EXPECT_TRUE(has(resumed, "counted 2 shards")) << resumed.output;
}

// perft --stats in a work dir (#62): every leaf counter of start position perft 5 as the
// Chess Programming Wiki publishes it, after a resume, on the pipeline backend too; the run
// is its own (a node count is refused in it); a clock the leaves can see is kept in the shards.
TEST(WorkDirCli, StatisticsInAWorkDirAreThePublishedRow) {
  const ScratchDir dir("stats");
  const std::string work = dir / "run";
  const std::string stats5 = "perft --depth 5 --stats --shards 40 --threads 2 --hash 16 --work-dir ";
  const auto expect_published_row = [](const CommandResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const char* row : {"nodes +4865609\n", "captures +82719\n", "en passant +258\n", "castles +0\n",
                            "checks +27351\n", "discovered checks +6\n", "double checks +0\n", "checkmates +347\n"})
      EXPECT_TRUE(std::regex_search(r.output, std::regex(row))) << row << r.output;
    EXPECT_TRUE(has(r, "Nodes searched: 4865609\n")) << r.output;
  };
  expect_published_row(run(stats5 + work + " --backend cpu"));
  for (const char* id : {"000002", "000017", "000039"}) std::filesystem::remove(work + "/results/" + id + ".result");
  const CommandResult resumed = run(stats5 + work + " --backend cpu");
  expect_published_row(resumed);
  EXPECT_TRUE(has(resumed, "), 37 done")) << resumed.output;
  expect_published_row(run(stats5 + dir / "pipeline" + " --backend pipeline"));

  const CommandResult json = run(stats5 + work + " --json");
  EXPECT_TRUE(has(json, "\"captures\":82719,")) << json.output;
  EXPECT_TRUE(has(json, "\"checkmates\":\"347\"")) << json.output;  // in stats_string

  expect_published_row(run("reduce " + work));

  const CommandResult nodes = run("perft --depth 5 --shards 40 --work-dir " + work);
  EXPECT_EQ(nodes.exit_code, 2) << nodes.output;
  EXPECT_TRUE(has(nodes, "holds another run (it counts statistics (--stats))")) << nodes.output;
  const CommandResult divide = run(stats5 + dir / "divide" + " --divide");
  EXPECT_EQ(divide.exit_code, 2) << divide.output;

  // Kiwipete with its clock at 96: leaves three plies down reach 99 at most... and four plies
  // down 100, so the clock stays in the shards. The counters equal the run without a work dir.
  const std::string kiwipete = "\"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 96 60\"";
  const CommandResult plain = run("perft --fen " + kiwipete + " --depth 4 --stats --threads 2 2>/dev/null");
  const CommandResult sharded =
      run("perft --fen " + kiwipete + " --depth 4 --stats --threads 2 --shards 64 --work-dir " + dir / "clock" +
          " 2>/dev/null");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_TRUE(std::regex_search(plain.output, std::regex(R"(clock >= 100 \(50-move\) +[1-9])"))) << plain.output;
  EXPECT_EQ(sharded.output, plain.output);
}

TEST(WorkDirCli, PerftRunsResumesAndReduces) {
  const ScratchDir dir("resume");
  const std::string work = dir / "run";
  const CommandResult first = run(PERFT5 + work);
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_TRUE(has(first, "Nodes searched: 4865609\n")) << first.output;
  EXPECT_TRUE(has(first, "in 40 shards")) << first.output;
  EXPECT_TRUE(has(first, "), 0 done")) << first.output;

  const CommandResult again = run(PERFT5 + work);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(has(again, "), 40 done")) << again.output;
  EXPECT_TRUE(has(again, "Nodes searched: 4865609\n")) << again.output;

  const CommandResult resumed_json = run(PERFT5 + work + " --json");
  EXPECT_TRUE(has(resumed_json, "\"nodes\":4865609,")) << resumed_json.output;
  EXPECT_TRUE(has(resumed_json, "\"shards\":40,")) << resumed_json.output;

  const CommandResult reduced = run("reduce " + work);
  EXPECT_EQ(reduced.exit_code, 0) << reduced.output;
  EXPECT_TRUE(has(reduced, "shards: 40, each counted once\nNodes searched: 4865609\n")) << reduced.output;
  const CommandResult json = run("reduce --json " + work);
  EXPECT_TRUE(has(json, "\"nodes\":4865609")) << json.output;
  const CommandResult status = run("status --json " + work);
  EXPECT_EQ(status.exit_code, 0) << status.output;
  EXPECT_TRUE(has(status, "\"done\":40,")) << status.output;
  EXPECT_TRUE(has(status, "\"complete\":true")) << status.output;
  const CommandResult text = run("status " + work);
  EXPECT_TRUE(has(text, "done: 40 of 40 (100.0%)")) << text.output;
}

TEST(WorkDirCli, DamagedResultsAreRecountedNeverCounted) {
  const ScratchDir dir("corrupt");
  const std::string work = dir / "run";
  ASSERT_EQ(run(PERFT5 + work).exit_code, 0);
  const std::string results = work + "/results/";

  const std::string r3 = read_text(results + "000003.result");
  write_text(results + "000003.result", r3.substr(0, r3.size() / 2));  // truncated
  std::string r5 = read_text(results + "000005.result");
  const std::size_t digits = r5.find("nodes ") + 6;
  r5[digits] = r5[digits] == '9' ? '1' : char(r5[digits] + 1);  // a count edited by hand
  write_text(results + "000005.result", r5);
  std::filesystem::copy_file(results + "000007.result", results + "000008.result",
                             std::filesystem::copy_options::overwrite_existing);  // another shard's result
  const std::string other = dir / "other";
  ASSERT_EQ(run("perft --depth 4 --shards 40 --hash 16 --work-dir " + other).exit_code, 0);
  std::filesystem::copy_file(other + "/results/000010.result", results + "000010.result",
                             std::filesystem::copy_options::overwrite_existing);  // another run's result
  write_text(results + "000011.result", "");                                      // empty
  write_text(results + "notes.txt", "not a result");
  std::filesystem::remove(results + "000020.result");
  std::filesystem::remove(results + "000021.result");

  // Each list of shards is labelled (#63: "871 missing, 0 corrupt: 153 154" read as corrupt).
  const CommandResult reduced = run("reduce " + work);
  EXPECT_EQ(reduced.exit_code, 1) << reduced.output;
  EXPECT_TRUE(has(reduced, "33 of 40 shards have a valid result (2 missing: 20 21; 5 corrupt: 3 5 8 10 11)"))
      << reduced.output;
  EXPECT_TRUE(has(reduced, "shard 5: result not counted: checksum mismatch")) << reduced.output;
  EXPECT_TRUE(has(reduced, "shard 8: result not counted: it is the result of shard 7")) << reduced.output;
  EXPECT_TRUE(has(reduced, "shard 10: result not counted: it belongs to another run")) << reduced.output;
  EXPECT_TRUE(has(reduced, "results/notes.txt: not the result of any shard")) << reduced.output;
  EXPECT_FALSE(has(reduced, "Nodes searched")) << reduced.output;
  EXPECT_TRUE(has(run("status --json " + work), "\"corrupt\":5,"));

  const CommandResult resumed = run(PERFT5 + work);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  for (const char* shard : {"shard 3:", "shard 5:", "shard 8:", "shard 10:", "shard 11:"})
    EXPECT_TRUE(has(resumed, std::string("warning: ") + shard)) << shard << "\n" << resumed.output;
  EXPECT_TRUE(has(resumed, "counting it again")) << resumed.output;
  EXPECT_TRUE(has(resumed, "Nodes searched: 4865609\n")) << resumed.output;
  EXPECT_EQ(run("reduce " + work).exit_code, 0);
}

TEST(WorkDirCli, RefusesToMixRuns) {
  const ScratchDir dir("mix");
  const std::string work = dir / "run";
  const std::string perft4 = "perft --depth 4 --shards 30 --hash 16 --work-dir " + work;
  ASSERT_EQ(run(perft4).exit_code, 0);
  const CommandResult deeper = run("perft --depth 5 --hash 16 --work-dir " + work);
  EXPECT_EQ(deeper.exit_code, 2) << deeper.output;
  EXPECT_TRUE(has(deeper, "holds another run (its depth is not 5)")) << deeper.output;
  const CommandResult moved = run(perft4 + " --moves e2e4");
  EXPECT_EQ(moved.exit_code, 2) << moved.output;
  EXPECT_TRUE(has(moved, "its root is not")) << moved.output;
  EXPECT_EQ(run(perft4 + " --fen '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1'").exit_code, 2);
  EXPECT_EQ(run("perft --depth 4 --shards 31 --hash 16 --work-dir " + work).exit_code, 2);
  EXPECT_EQ(run(perft4 + " --split-depth 1").exit_code, 2);
  EXPECT_EQ(run(perft4).exit_code, 0);                                          // the same run resumes
  EXPECT_EQ(run("perft --depth 4 --hash 16 --work-dir " + work).exit_code, 0);  // defaults take what is there

  write_text(dir / "unrelated.txt", "someone's file");
  const CommandResult littered = run("perft --depth 4 --work-dir " + dir.path());
  EXPECT_EQ(littered.exit_code, 2) << littered.output;
  EXPECT_TRUE(has(littered, "is not empty and holds no perftkit run")) << littered.output;
  EXPECT_EQ(run("status " + dir.path()).exit_code, 2);
  EXPECT_EQ(run("reduce " + dir.path()).exit_code, 2);
  EXPECT_EQ(run("work " + dir.path()).exit_code, 2);
  EXPECT_EQ(run("perft --depth 4 --divide --work-dir " + dir / "x").exit_code, 2);
  EXPECT_EQ(run("perft --depth 1 --work-dir " + dir / "y").exit_code, 2);
  EXPECT_EQ(run("perft --depth 4 --shards 10").exit_code, 2);
  EXPECT_EQ(run("work " + work + " --worker 2 --workers 2").exit_code, 2);
  EXPECT_EQ(run("work " + work + " --worker 0").exit_code, 2);
}

TEST(WorkDirCli, ArrayWorkersEachCountTheirPart) {
  const ScratchDir dir("array");
  const std::string work = dir / "run";
  const CommandResult prepared = run(PERFT5 + work + " --prepare");
  EXPECT_EQ(prepared.exit_code, 0) << prepared.output;
  EXPECT_FALSE(has(prepared, "Nodes searched")) << prepared.output;
  EXPECT_EQ(run("reduce " + work).exit_code, 1);
  for (int k = 0; k < 3; ++k) {
    const CommandResult part =
        run("work " + work + " --worker " + std::to_string(k) + " --workers 3 --threads 1 --hash 8");
    EXPECT_EQ(part.exit_code, 0) << part.output;
    EXPECT_TRUE(has(part, k == 0 ? "counted 14 shards" : "counted 13 shards")) << part.output;
  }
  const CommandResult reduced = run("reduce " + work);
  EXPECT_EQ(reduced.exit_code, 0) << reduced.output;
  EXPECT_TRUE(has(reduced, "Nodes searched: 4865609\n")) << reduced.output;
}

TEST(WorkDirCli, ConcurrentWorkersCountEachShardOnce) {
  const ScratchDir dir("concurrent");
  const std::string work = dir / "run";
  ASSERT_EQ(run("perft --depth 6 --shards 64 --work-dir " + work + " --prepare").exit_code, 0);
  const std::string worker =
      std::string(perftkit::test_paths::perftkit_binary()) + " work " + work + " --threads 1 --hash 8";
  const CommandResult both = perftkit::testing_support::run_shell(worker + " & " + worker + " & wait");
  std::size_t counted = 0;
  const std::regex tally("counted ([0-9]+) shards");
  for (std::sregex_iterator it(both.output.begin(), both.output.end(), tally), end; it != end; ++it)
    counted += std::stoul((*it)[1]);
  EXPECT_EQ(counted, 64u) << both.output;
  const CommandResult reduced = run("reduce " + work);
  EXPECT_EQ(reduced.exit_code, 0) << reduced.output;
  EXPECT_TRUE(has(reduced, "Nodes searched: 119060324\n")) << reduced.output;
}

TEST(WorkDirCli, DamagedShardFileIsReportedThenWrittenAgain) {
  const ScratchDir dir("shard");
  const std::string work = dir / "run";
  ASSERT_EQ(run(PERFT5 + work + " --prepare").exit_code, 0);
  const std::string shard = work + "/shards/000002.shard";
  std::string bytes = read_text(shard);
  bytes[bytes.size() / 2] ^= 0x10;
  write_text(shard, bytes);
  const CommandResult worker = run("work " + work + " --hash 8");
  EXPECT_EQ(worker.exit_code, 1) << worker.output;
  EXPECT_TRUE(has(worker, "error: shard 2:")) << worker.output;
  EXPECT_TRUE(has(worker, "checksum mismatch")) << worker.output;
  std::filesystem::remove(work + "/shards/000004.shard");
  const CommandResult repaired = run(PERFT5 + work);
  EXPECT_EQ(repaired.exit_code, 0) << repaired.output;
  EXPECT_TRUE(has(repaired, "shard 2 was missing or corrupt; written again")) << repaired.output;
  EXPECT_TRUE(has(repaired, "shard 4 was missing or corrupt; written again")) << repaired.output;
  EXPECT_TRUE(has(repaired, "Nodes searched: 4865609\n")) << repaired.output;
}

TEST(WorkDirCli, StaleClaimsAreTakenOverLiveOnesAreNot) {
  const ScratchDir dir("claims");
  const std::string work = dir / "run";
  ASSERT_EQ(run(PERFT5 + work + " --prepare").exit_code, 0);
  // A claim of a process of this host that no longer exists: taken over at once.
  write_text(work + "/claims/000000.claim", "host " + host_name() + "\npid 2147483000\n");
  // A claim of another host with a fresh heartbeat: left alone until the timeout.
  write_text(work + "/claims/000001.claim", "host elsewhere.example\npid 1\n");
  const CommandResult worker = run("work " + work + " --hash 8");
  EXPECT_EQ(worker.exit_code, 0) << worker.output;
  EXPECT_TRUE(has(worker, "counted 39 shards")) << worker.output;
  const CommandResult status = run("status --json " + work);
  EXPECT_TRUE(has(status, "\"done\":39,\"in_flight\":1,")) << status.output;
  EXPECT_EQ(run("reduce " + work).exit_code, 1);

  const CommandResult late = run("work " + work + " --hash 8 --claim-timeout 0.001");
  EXPECT_TRUE(has(late, "counted 1 shards")) << late.output;
  EXPECT_TRUE(has(run("reduce " + work), "Nodes searched: 4865609\n"));
  EXPECT_FALSE(std::filesystem::exists(work + "/claims/000001.claim"));
}

TEST(WorkDirCli, ShardsRunOnThePipelineBackendToo) {
  const ScratchDir dir("pipeline");
  const CommandResult r = run("perft --depth 5 --shards 16 --backend pipeline --threads 2 --work-dir " + dir / "run");
  if (r.output.find("no frontier pipeline") != std::string::npos) GTEST_SKIP() << "built without the pipeline";
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r, "Nodes searched: 4865609\n")) << r.output;
  EXPECT_TRUE(has(r, "(pipeline, 1 process of 2 threads)")) << r.output;
}

TEST(WorkDirCli, ARootWithoutMovesHasNoShardsAndNoNodes) {
  const ScratchDir dir("mate");
  const CommandResult r = run("perft --depth 3 --work-dir " + dir / "run" +
                              " --fen 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r, "Nodes searched: 0\n")) << r.output;
}

TEST(WorkDirCli, HelpListsTheWorkDirCommands) {
  const CommandResult help = run("--help");
  for (const char* command : {"status", "reduce", "work"}) EXPECT_TRUE(has(help, command)) << command;
  EXPECT_TRUE(has(run("perft --help"), "--work-dir"));
}

}  // namespace
