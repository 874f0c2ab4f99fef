// The streaming pipeline (blocks, threads, ordered output) and `perftkit classify` end to end:
// the same rows whatever the block size and thread count; exit codes; bad rows kept.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "classify/batch.hpp"
#include "classify/stream.hpp"
#include "common/cuda_presence.hpp"
#include "support/cli_runner.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

std::string test_data(const char* name) { return std::string(perftkit::test_paths::test_data_dir()) + "/" + name; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file in the temporary directory, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& contents = {}) {
    char name[] = "/tmp/perftkit_classify_XXXXXX";
    const int fd = ::mkstemp(name);
    EXPECT_GE(fd, 0);
    if (fd >= 0) {
      EXPECT_EQ(::write(fd, contents.data(), contents.size()), ssize_t(contents.size()));
      ::close(fd);
    }
    path_ = name;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct PipelineRun {
  std::string output;
  ClassifyStreamResult result;
};

PipelineRun run_on(const std::vector<std::string>& paths, ClassifyStreamOptions options) {
  std::vector<ClassifyInput> inputs;
  for (const std::string& p : paths) inputs.emplace_back(p);
  TempFile out;
  const int fd = ::open(out.path().c_str(), O_WRONLY | O_TRUNC);
  PipelineRun run;
  run.result = run_classify_stream(inputs, options, fd);
  ::close(fd);
  run.output = read_file(out.path());
  return run;
}

ClassifyStreamOptions tiny_blocks(unsigned threads) {
  ClassifyStreamOptions o;
  o.threads = threads;
  o.line_block_bytes = 100;  // a block or two per line
  o.pgn_block_bytes = 64;    // games span many reads
  o.max_line_bytes = 4096;
  return o;
}

TEST(ClassifyPipeline, SameRowsWhateverTheBlocksAndThreads) {
  // Many lines, so that several blocks are in flight at once.
  std::string text;
  const std::string lines = read_file(test_data("classify_lines.txt"));
  for (int i = 0; i < 50; ++i) text += lines;
  const TempFile file(text);
  const PipelineRun reference = run_on({file.path()}, ClassifyStreamOptions{});
  EXPECT_EQ(reference.result.summary.rows, 500u);
  EXPECT_EQ(reference.result.rejected, 50u);
  for (const unsigned threads : {1u, 2u, 5u}) {
    const PipelineRun small = run_on({file.path()}, tiny_blocks(threads));
    EXPECT_EQ(small.output, reference.output) << threads << " threads";
    EXPECT_EQ(small.result.summary.valid, reference.result.summary.valid);
  }
}

TEST(ClassifyPipeline, PgnGamesAcrossBlocks) {
  const std::string games = test_data("classify_games.pgn"), errors = test_data("classify_errors.pgn");
  ClassifyStreamOptions whole;
  whole.positions = PgnPositions::FINAL;
  const PipelineRun reference = run_on({games, errors}, whole);
  EXPECT_EQ(reference.result.summary.games, 14u);
  // A row per game, and the last legal position of the 4 games broken after a move.
  EXPECT_EQ(reference.result.summary.rows, 18u);
  EXPECT_EQ(reference.result.rejected, 6u);
  ClassifyStreamOptions small = tiny_blocks(3);
  small.positions = PgnPositions::FINAL;
  EXPECT_EQ(run_on({games, errors}, small).output, reference.output);
  // The header comes once, then each file's rows under its own name.
  EXPECT_EQ(reference.output.find("source,"), 0u);
  EXPECT_EQ(reference.output.find("source,", 1), std::string::npos);
  EXPECT_NE(reference.output.find("classify_errors.pgn:game 7:ply 2,"), std::string::npos);
}

TEST(ClassifyPipeline, LongLineIsReportedNotBuffered) {
  const std::string good = "8/8/8/4k3/8/8/8/4K3 w - - 0 1 ok\n";
  // Longer than a read, so that the reader meets it without its end and must cut it.
  const TempFile file(good + std::string(200000, 'x') + "\n" + good + std::string(5000, 'y') + "\n" + good);
  const PipelineRun run = run_on({file.path()}, tiny_blocks(2));
  EXPECT_EQ(run.result.summary.rows, 5u);
  EXPECT_EQ(run.result.rejected, 2u);
  EXPECT_NE(run.output.find(":2," + std::string(64, 'x') + ",,0,line: longer than 4096 bytes"), std::string::npos);
  EXPECT_NE(run.output.find(":3,8/8/8/4k3/8/8/8/4K3 w - - 0 1,ok,1,"), std::string::npos);
  EXPECT_NE(run.output.find(":4," + std::string(64, 'y') + ",,0,line: longer than 4096 bytes"), std::string::npos);
  EXPECT_NE(run.output.find(":5,8/8/8/4k3/8/8/8/4K3 w - - 0 1,ok,1,"), std::string::npos);
  EXPECT_LT(run.output.size(), 2000u);
}

TEST(ClassifyPipeline, EmptyInputGivesTheHeaderOnly) {
  const TempFile file;
  const PipelineRun run = run_on({file.path()}, ClassifyStreamOptions{});
  EXPECT_EQ(run.result.summary.rows, 0u);
  EXPECT_EQ(run.output.substr(0, 7), "source,");
  EXPECT_EQ(run.output.find('\n'), run.output.size() - 1);
}

// ---- batched classification (the GPU's path; here with the kernel's CPU twin) -------------

// A batch classifier that records the batches it was given, around the CPU twin.
class RecordingClassifier final : public BatchClassifier {
 public:
  explicit RecordingClassifier(std::size_t& batches) : batches_(batches) {}
  void classify(std::span<const Position> positions, std::span<const std::uint8_t> repetitions,
                std::span<Classification> out) override {
    ++batches_;
    inner_->classify(positions, repetitions, out);
  }

 private:
  std::size_t& batches_;
  std::unique_ptr<BatchClassifier> inner_ = make_cpu_batch_classifier();
};

ClassifyStreamOptions batched(ClassifyStreamOptions o, std::vector<std::size_t>& batches_per_worker) {
  batches_per_worker.assign(std::max(1u, o.threads), 0);
  o.batch_classifier = [&batches_per_worker](unsigned worker) {
    return std::make_unique<RecordingClassifier>(batches_per_worker.at(worker));
  };
  return o;
}

std::size_t sum(const std::vector<std::size_t>& v) {
  std::size_t s = 0;
  for (std::size_t x : v) s += x;
  return s;
}

// Every row, byte for byte, as the position-at-a-time path writes it: valid and rejected
// rows interleaved, every format, whatever the blocks and threads.
TEST(ClassifyBatch, SameRowsAsClassifyingOneAtATime) {
  std::string text;
  const std::string lines = read_file(test_data("classify_lines.txt"));
  for (int i = 0; i < 400; ++i) text += lines;  // several reads of 64 KiB: several blocks
  const TempFile file(text);
  for (const RowFormat format : {RowFormat::CSV, RowFormat::TSV, RowFormat::JSONL}) {
    ClassifyStreamOptions options = tiny_blocks(3);
    options.format = format;
    const PipelineRun reference = run_on({file.path()}, options);
    std::vector<std::size_t> batches;
    const PipelineRun run = run_on({file.path()}, batched(options, batches));
    EXPECT_EQ(run.output, reference.output);
    EXPECT_EQ(run.result.rejected, 400u);
    EXPECT_GT(sum(batches), 3u);
  }
}

TEST(ClassifyBatch, SharedPositionsInLargeBatches) {
  const std::string lichess = std::string(perftkit::test_paths::shared_data_dir()) + "/positions/lichess-30K-games.txt";
  if (!std::filesystem::exists(lichess)) GTEST_SKIP() << "no shared data at " << lichess;
  ClassifyStreamOptions options;
  options.threads = 2;
  const PipelineRun reference = run_on({lichess}, options);
  std::vector<std::size_t> batches;
  const PipelineRun run = run_on({lichess}, batched(options, batches));
  EXPECT_EQ(run.output, reference.output);
  EXPECT_EQ(run.result.summary.rows, 30000u);
  EXPECT_EQ(run.result.summary.in_check, reference.result.summary.in_check);
  EXPECT_GE(sum(batches), 2u);
}

// PGN games: positions with their repetition counts, and games that stop at an error; with
// game columns too (the batch holds each row's move and tag columns until the block ends).
TEST(ClassifyBatch, PgnGamesWithRepetitionsAndErrors) {
  const std::string games = test_data("classify_games.pgn"), errors = test_data("classify_errors.pgn");
  GameColumns columns;
  for (const char* name : {"game", "ply", "move", "clock", "eval"}) ASSERT_TRUE(columns.add(name)) << name;
  columns.tags = {"White", "Event", "WhiteElo", "NoSuchTag"};
  for (const bool with_columns : {false, true}) {
    for (const RowFormat format : {RowFormat::CSV, RowFormat::JSONL}) {
      for (const PgnPositions positions : {PgnPositions::ALL, PgnPositions::FINAL}) {
        ClassifyStreamOptions options = tiny_blocks(2);
        options.positions = positions;
        options.format = format;
        if (with_columns) options.columns = columns;
        const PipelineRun reference = run_on({games, errors}, options);
        std::vector<std::size_t> batches;
        const PipelineRun run = run_on({games, errors}, batched(options, batches));
        EXPECT_EQ(run.output, reference.output);
        EXPECT_EQ(run.result.rejected, 6u);
        if (with_columns) {
          EXPECT_NE(reference.output.find("Scholar's mate"), std::string::npos);
        }
      }
    }
  }
}

TEST(ClassifyBatch, LongLinesStayInOrder) {
  const std::string good = "8/8/8/4k3/8/8/8/4K3 w - - 0 1 ok\n";
  const TempFile file(good + std::string(5000, 'y') + "\n" + good + "bad fen\n" + good);
  const PipelineRun reference = run_on({file.path()}, tiny_blocks(2));
  std::vector<std::size_t> batches;
  const PipelineRun run = run_on({file.path()}, batched(tiny_blocks(2), batches));
  EXPECT_EQ(run.output, reference.output);
  EXPECT_EQ(run.result.rejected, 2u);
}

TEST(ClassifyBatch, CpuTwinRefusesMismatchedSpans) {
  const auto classifier = make_cpu_batch_classifier();
  std::vector<Position> positions(2);
  std::vector<Classification> out(1);
  EXPECT_THROW(classifier->classify(positions, {}, out), std::invalid_argument);
  std::vector<std::uint8_t> repetitions(3);
  out.resize(2);
  EXPECT_THROW(classifier->classify(positions, repetitions, out), std::invalid_argument);
}

TEST(ClassifyPipeline, InputKindFromNameAndFirstBytes) {
  EXPECT_EQ(detect_input_kind(true, "8/8/8"), InputKind::PGN);
  EXPECT_EQ(detect_input_kind(false, "\n  [Event \"x\"]"), InputKind::PGN);
  EXPECT_EQ(detect_input_kind(false, "1. e4 e5"), InputKind::PGN);
  EXPECT_EQ(detect_input_kind(false, "8/8/8/8/8/8/8/8 w - -"), InputKind::LINES);
  EXPECT_EQ(detect_input_kind(false, "rnbqkbnr/pppppppp/8"), InputKind::LINES);
  EXPECT_EQ(detect_input_kind(false, ""), InputKind::LINES);
}

using testing_support::CommandResult;
using testing_support::run_shell;

CommandResult perftkit(const std::string& args) { return testing_support::run_perftkit(args); }

// The rows `perftkit classify ARGS` writes to a file (stderr's progress and summary apart).
std::string classify_rows(const std::string& args) {
  const TempFile out;
  const CommandResult r = perftkit("classify " + args + " -o " + out.path());
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.output;
  return read_file(out.path());
}

TEST(ClassifyCli, PipelineBackendWritesTheSameRows) {
  for (const char* name : {"classify_lines.txt", "classify_games.pgn", "classify_errors.pgn"}) {
    const std::string file = test_data(name);
    const std::string cpu = classify_rows("--backend cpu " + file);
    EXPECT_EQ(classify_rows("--backend pipeline " + file), cpu) << name;
    EXPECT_GT(cpu.size(), 100u);
  }
}

#ifdef PERFTKIT_HAVE_CUDA
// The kernel against the CPU on the shared positions, the test vector and PGN games.
TEST(ClassifyCli, CudaBackendWritesTheSameRows) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  std::vector<std::string> files = {test_data("classify_games.pgn"), test_data("classify_lines.txt")};
  for (const char* name : {"lichess-30K-games.txt", "test-vector.txt"})
    files.push_back(std::string(perftkit::test_paths::shared_data_dir()) + "/positions/" + name);
  for (const std::string& file : files) {
    if (!std::filesystem::exists(file)) continue;
    EXPECT_EQ(classify_rows("--backend cuda " + file), classify_rows("--backend cpu " + file)) << file;
  }
}
#endif

TEST(ClassifyCli, BadRowsKeepTheExitCodeZeroUnlessStrict) {
  const std::string file = test_data("classify_lines.txt");
  const CommandResult normal = perftkit("classify " + file);
  EXPECT_EQ(normal.exit_code, 0) << normal.output;
  EXPECT_NE(normal.output.find("classify_lines.txt:7,this is not a,position,0,"), std::string::npos) << normal.output;
  EXPECT_NE(normal.output.find("1 of 10 rows rejected"), std::string::npos);
  EXPECT_EQ(perftkit("classify --strict " + file + " -o /dev/null").exit_code, 1);
  EXPECT_EQ(perftkit("classify --strict " + test_data("classify_games.pgn") + " -o /dev/null").exit_code, 0);
}

TEST(ClassifyCli, UnreadableFileExitsTwoWithTheReason) {
  const CommandResult r = perftkit("classify /nonexistent/positions.epd");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot read '/nonexistent/positions.epd': No such file or directory"), std::string::npos)
      << r.output;
  EXPECT_EQ(perftkit("classify /tmp").exit_code, 2);
}

TEST(ClassifyCli, CudaBackendWithoutADeviceFailsCleanly) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is present";
  const CommandResult r = perftkit("classify --backend cuda " + test_data("classify_lines.txt"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no CUDA device"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("source,"), std::string::npos);  // nothing written
}

// -o picks the row format from its extension, --format overrides it, and a name the rows
// would not match (Parquet, bzip2, xz) or an input file is refused, exit 2, before anything
// is written (#65).
TEST(ClassifyCli, OutputFollowsItsName) {
  const std::string file = test_data("classify_lines.txt");
  const TempFile dir_marker;
  const std::string base = dir_marker.path();
  const auto written = [&](const std::string& name, const std::string& options = {}) {
    const CommandResult r = perftkit("classify " + file + " -o " + base + name + " " + options);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.output;
    const std::string rows = read_file(base + name);
    std::filesystem::remove(base + name);
    return rows.substr(0, rows.find('\n'));
  };
  EXPECT_TRUE(written(".jsonl").starts_with("{\"source\":")) << written(".jsonl");
  EXPECT_TRUE(written(".JSONL").starts_with("{\"source\":"));
  EXPECT_TRUE(written(".tsv").starts_with("source\tfen\tid\t"));
  EXPECT_TRUE(written(".csv").starts_with("source,fen,id,"));
  EXPECT_TRUE(written(".rows").starts_with("source,fen,id,"));  // no known extension: CSV
  EXPECT_TRUE(written(".jsonl", "--format csv").starts_with("source,fen,id,"));

  for (const std::string name : {".parquet", ".tsv.bz2", ".csv.xz"}) {
    const CommandResult r = perftkit("classify " + file + " -o " + base + name);
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.output;
    EXPECT_NE(r.output.find("perftkit: error: -o " + base + name + ": "), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(base + name)) << name;
  }
  EXPECT_NE(perftkit("classify " + file + " -o " + base + ".parquet").output.find("perftkit.classify_file"),
            std::string::npos);

  const TempFile input(read_file(file));
  const CommandResult over = perftkit("classify " + input.path() + " -o " + input.path());
  EXPECT_EQ(over.exit_code, 2) << over.output;
  EXPECT_NE(over.output.find("is the input file"), std::string::npos) << over.output;
  EXPECT_EQ(read_file(input.path()), read_file(file));
}

// -o NAME.gz and NAME.zst write a gzip or zstd stream (by its magic bytes) of the rows that the
// plain name gets, in the format of the extension before it (#65). Decompressed by gzip(1)
// and zstd(1), not by perftkit's own readers.
TEST(ClassifyCli, CompressedOutputFollowsItsName) {
  const std::string file = test_data("classify_lines.txt");
  const TempFile dir_marker;
  const std::string base = dir_marker.path();
  const auto plain = [&](const std::string& name) {
    EXPECT_EQ(perftkit("classify " + file + " -o " + base + name).exit_code, 0);
    const std::string rows = read_file(base + name);
    std::filesystem::remove(base + name);
    return rows;
  };
  const std::string tsv = plain(".tsv"), csv = plain(".csv"), jsonl = plain(".jsonl");
  ASSERT_TRUE(tsv.starts_with("source\tfen\tid\t")) << tsv;
  ASSERT_TRUE(jsonl.starts_with("{\"source\":")) << jsonl;

  struct Case {
    std::string name, magic, decompressor, rows;
  };
  const std::vector<Case> cases{{".tsv.gz", "\x1f\x8b", "gzip -dc", tsv},
                                {".jsonl.GZ", "\x1f\x8b", "gzip -dc", jsonl},
                                {".csv.zst", "\x28\xb5\x2f\xfd", "zstd -dcq", csv},
                                {".tsv.zst", "\x28\xb5\x2f\xfd", "zstd -dcq", tsv}};
  for (const Case& c : cases) {
    const std::string path = base + c.name;
    const CommandResult r = perftkit("classify " + file + " -o " + path);
    ASSERT_EQ(r.exit_code, 0) << c.name << ": " << r.output;
    const std::string bytes = read_file(path);
    EXPECT_TRUE(bytes.starts_with(c.magic)) << c.name;
    EXPECT_EQ(bytes.find("source"), std::string::npos) << c.name << ": the rows are not plain";
    if (std::system(("command -v " + c.decompressor.substr(0, c.decompressor.find(' ')) + " >/dev/null").c_str()) != 0)
      continue;  // gzip is in every Debian; zstd comes with .ci/run
    const CommandResult back = run_shell(c.decompressor + " '" + path + "'");
    EXPECT_EQ(back.exit_code, 0) << c.name << ": " << back.output;
    EXPECT_EQ(back.output, c.rows) << c.name;  // the first row and every other
    std::filesystem::remove(path);
  }
}

TEST(ClassifyCli, StdinSummaryAndFormats) {
  const std::string file = test_data("classify_lines.txt");
  const CommandResult jsonl = perftkit("classify --format jsonl --summary - < " + file);
  EXPECT_EQ(jsonl.exit_code, 0);
  EXPECT_NE(jsonl.output.find("{\"source\":\"stdin:2\","), std::string::npos) << jsonl.output;
  EXPECT_NE(jsonl.output.find("classify: 10 rows (9 valid, 1 invalid)"), std::string::npos);
  const TempFile summary;
  const CommandResult tsv =
      perftkit("classify --format tsv --no-header --summary-json " + summary.path() + " " + file + " -o /dev/null");
  EXPECT_EQ(tsv.exit_code, 0) << tsv.output;
  const std::string json = read_file(summary.path());
  EXPECT_NE(json.find("\"rows\":10,\"valid\":9,\"invalid\":1,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"checkmate\":1,"), std::string::npos) << json;
  EXPECT_EQ(perftkit("classify --format xml " + file).exit_code, 2);
  EXPECT_EQ(perftkit("classify --summary-json - " + file).exit_code, 2);  // the rows already use stdout
}

TEST(ClassifyCli, PgnFinalPositions) {
  const CommandResult r = perftkit("classify --positions final " + test_data("classify_games.pgn"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("classify_games.pgn:game 2:ply 16,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9,"
                          ",1,,20,0,0,0,0,0,0,0,0,0,5,fivefold_repetition,draw,"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace perftkit
