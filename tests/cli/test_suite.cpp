// Perft suite reader (all three formats, errors with line numbers) and `perftkit verify`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "notation/fen.hpp"
#include "notation/suite.hpp"
#include "cli/verify_command.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using namespace std::string_literals;

// The expected counts of c as "D=N" words, e.g. "1=20 2=400".
std::string counts(const SuiteCase& c) {
  std::string out;
  for (const ExpectedCount& e : c.expected)
    out += (out.empty() ? "" : " ") + std::to_string(e.depth) + "=" + to_string_u128(e.nodes);
  return out;
}

// Every error as "source: reason" lines, for failure messages.
std::string errors(const Suite& s) {
  std::string out;
  for (const SuiteError& e : s.errors) out += e.source + ": " + e.reason + "\n";
  return out;
}

// ---- formats ----------------------------------------------------------------------------

TEST(SuiteParse, SpaceSemicolonFormat) {
  const Suite s = parse_suite(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n"
      "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n",
      "standard.epd");
  ASSERT_TRUE(s.errors.empty()) << errors(s);
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(counts(s.cases[0]), "1=20 2=400 3=8902");
  EXPECT_EQ(s.cases[0].name, "standard.epd:1");
  EXPECT_EQ(s.cases[1].source, "standard.epd:2");
  EXPECT_EQ(s.cases[1].line, 2u);
  EXPECT_EQ(counts(s.cases[1]), "1=15 2=66");
  EXPECT_FALSE(s.cases[1].from_epd_line);
}

TEST(SuiteParse, ShredderCastlingLettersAreKeptAsText) {
  const Suite s =
      parse_suite("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528\n", "fischer.epd");
  ASSERT_EQ(s.cases.size(), 1u) << errors(s);
  EXPECT_EQ(s.cases[0].fen, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
}

TEST(SuiteParse, SemicolonSpaceFormatWithNulBytesAndDoubledSpace) {
  const Suite s = parse_suite(
      "k7/6p1/8/8/8/8/7P/K7 b - - 0 1; D1 5; D2 25; D3 161\0\n"
      "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1; D6 1134888\0\n"
      "8/5kpp/8/8/1p3P2/6PP/r3KP2/1R1q4 w - -  0 1; D4 23441\0\n"
      "\n"s,
      "perft.epd");
  ASSERT_TRUE(s.errors.empty()) << errors(s);
  ASSERT_EQ(s.cases.size(), 3u);
  EXPECT_EQ(s.cases[0].fen, "k7/6p1/8/8/8/8/7P/K7 b - - 0 1");
  EXPECT_EQ(counts(s.cases[0]), "1=5 2=25 3=161");
  EXPECT_EQ(counts(s.cases[1]), "6=1134888");
  EXPECT_EQ(s.cases[2].fen, "8/5kpp/8/8/1p3P2/6PP/r3KP2/1R1q4 w - - 0 1");
  EXPECT_EQ(counts(s.cases[2]), "4=23441");
}

TEST(SuiteParse, CrlfLineEndingsAndMissingFinalNewline) {
  const Suite s = parse_suite(
      "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\r\n"
      "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16\r\n"
      "id last\r\n"
      "epd 4k2r/8/8/8/8/8/8/4K3 w k -\r\n"
      "perft 1 5",
      "crlf.epd");
  ASSERT_TRUE(s.errors.empty()) << errors(s);
  ASSERT_EQ(s.cases.size(), 3u);
  EXPECT_EQ(s.cases[0].fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  EXPECT_EQ(counts(s.cases[0]), "1=15 2=66");
  EXPECT_EQ(s.cases[2].name, "last");
  EXPECT_EQ(s.cases[2].fen, "4k2r/8/8/8/8/8/8/4K3 w k -");
  EXPECT_EQ(counts(s.cases[2]), "1=5");
}

TEST(SuiteParse, BlockFormatWithCommentsAndBlankLines) {
  const Suite s = parse_suite(
      "#\n"
      "# Position 2: Kiwipete.\n"
      "id pos-2\n"
      "epd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n"
      "perft 1 48\n"
      "perft 2 2039\n"
      "\n"
      "   # indented comment\n"
      "epd rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6\n"
      "perft 1 2\n"
      "perft 3 2528\n",
      "tricky.perft");
  ASSERT_TRUE(s.errors.empty()) << errors(s);
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].name, "pos-2");
  EXPECT_EQ(s.cases[0].source, "tricky.perft:4");
  EXPECT_TRUE(s.cases[0].from_epd_line);
  EXPECT_EQ(s.cases[0].fen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
  EXPECT_EQ(counts(s.cases[0]), "1=48 2=2039");
  EXPECT_EQ(s.cases[1].name, "tricky.perft:9");  // no id line: named by its position
  EXPECT_EQ(counts(s.cases[1]), "1=2 3=2528");
}

TEST(SuiteParse, CountsBeyond64BitsAreExact) {
  const Suite s = parse_suite(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D14 61885021521585529237\n"
      "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
      "perft 15 2015099950053364471960\n",
      "big");
  ASSERT_EQ(s.cases.size(), 2u) << errors(s);
  EXPECT_EQ(counts(s.cases[0]), "14=61885021521585529237");
  EXPECT_EQ(counts(s.cases[1]), "15=2015099950053364471960");
}

TEST(SuiteParse, EpdIdOperationNamesTheCase) {
  const Suite s = parse_suite("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;id \"bare kings\" ;D1 3\n", "ops.epd");
  ASSERT_EQ(s.cases.size(), 1u) << errors(s);
  EXPECT_EQ(s.cases[0].name, "bare kings");
  EXPECT_EQ(counts(s.cases[0]), "1=3");
}

TEST(SuiteParse, EmptyAndCommentOnlyTextHoldsNothing) {
  for (const char* text : {"", "\n\n", "# only a comment\n\r\n", "\xEF\xBB\xBF"}) {
    const Suite s = parse_suite(text, "empty");
    EXPECT_TRUE(s.cases.empty());
    EXPECT_TRUE(s.errors.empty()) << errors(s);
  }
}

// ---- errors -----------------------------------------------------------------------------

TEST(SuiteParse, MalformedLineIsReportedWithItsLineNumberAndTheRestIsRead) {
  const Suite s = parse_suite(
      "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n"
      "# comment\n"
      "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 7x1\n"
      "4k2r/8/8/8/8/8/8/4K3 w k - 0 1 ;D1 5\n",
      "bad.epd");
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].source, "bad.epd:3");
  EXPECT_EQ(s.errors[0].line, 3u);
  EXPECT_NE(s.errors[0].reason.find("bad count"), std::string::npos) << s.errors[0].reason;
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[1].source, "bad.epd:4");
}

// The first error's "line: reason" for one malformed suite text.
std::string first_error(std::string_view text) {
  const Suite s = parse_suite(text, "f");
  return s.errors.empty() ? "no error" : s.errors[0].source + " " + s.errors[0].reason;
}

TEST(SuiteParse, EachKindOfMalformedLineNamesItsProblem) {
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1\n"),
            "f:1 expected 'FEN ;D1 count ...' or a line starting with id, epd or perft");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;\n"), "f:1 no depth counts (expected ';D1 count')");
  EXPECT_EQ(first_error(" ;D1 3\n"), "f:1 missing FEN before ';'");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;bm e4\n"), "f:1 unknown operation 'bm e4'");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;Dx 3\n"), "f:1 bad depth in 'Dx 3'");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1\n"), "f:1 bad count in 'D1'");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 4\n"), "f:1 bad count in 'D1 3 4'");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D1 3\n"), "f:1 depth 1 is listed twice");
  EXPECT_EQ(first_error("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D99 3\n"), "f:1 bad depth in 'D99 3'");
  EXPECT_EQ(first_error("\nperft 1 20\n"), "f:2 perft line without an epd line before it");
  EXPECT_EQ(first_error("epd 8/8/8/8/8/8/8/K1k5 w - -\nperft one 3\n"),
            "f:2 bad depth 'one' (expected 'perft DEPTH COUNT')");
  EXPECT_EQ(first_error("epd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 -3\n"),
            "f:2 bad count '-3' (expected 'perft DEPTH COUNT')");
  EXPECT_EQ(first_error("epd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3 extra\n"), "f:2 unexpected 'extra' after the count");
  EXPECT_EQ(first_error("epd 8/8/8/8/8/8/8/K1k5 w - -\n\nid next\n"), "f:1 epd line has no perft lines after it");
  EXPECT_EQ(first_error("id lonely\n"), "f:1 id 'lonely' has no epd line after it");
  EXPECT_EQ(first_error("id\n"), "f:1 id line without a name");
  EXPECT_EQ(first_error("epd\n"), "f:1 epd line without a position");
  EXPECT_EQ(first_error("epd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3\nperft 1 3\n"), "f:3 depth 1 is listed twice");
}

TEST(SuiteParse, BadPerftLineKeepsTheBlocksOtherCounts) {
  const Suite s = parse_suite("id a\nepd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3\nperft 2 x\n", "f");
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].source, "f:4");
  ASSERT_EQ(s.cases.size(), 1u);
  EXPECT_EQ(counts(s.cases[0]), "1=3");
}

TEST(SuiteParse, UnreadableFileIsAnErrorValue) {
  const SuiteFileResult missing = read_suite("/nonexistent/perftkit/suite.epd");
  EXPECT_FALSE(missing);
  EXPECT_NE(missing.error.find("/nonexistent/perftkit/suite.epd"), std::string::npos) << missing.error;
  const SuiteFileResult directory = read_suite(std::filesystem::temp_directory_path());
  EXPECT_FALSE(directory);
  EXPECT_NE(directory.error.find("directory"), std::string::npos) << directory.error;
}

// ---- the real suites (../shared/data) ---------------------------------------------------

const char* const REFERENCE_SUITES[] = {"standard.epd", "perft.epd",    "perft-ferdy-double-checks.epd",
                                        "tricky.perft", "random.perft", "fischer.epd"};

std::filesystem::path shared_perft_dir() {
  return std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft";
}

#define SKIP_WITHOUT_SHARED_DATA()                                              \
  if (!std::filesystem::is_directory(shared_perft_dir()))                       \
  GTEST_SKIP() << "reference data not found at " << shared_perft_dir().string() \
               << " (set the CMake cache variable PERFTKIT_SHARED_DATA)"

// The suite in ../shared/data/perft/<name>, with no malformed line.
Suite shared_suite(const std::string& name) {
  const SuiteFileResult result = read_suite(shared_perft_dir() / name, name);
  EXPECT_TRUE(result) << result.error;
  if (!result) return {};
  EXPECT_TRUE(result->errors.empty()) << errors(*result);
  return *result;
}

// Sum of the expected counts at `depth` (all depths when 0, the deepest of each case when -1).
u128 total(const Suite& s, int depth) {
  u128 sum = 0;
  for (const SuiteCase& c : s.cases) {
    int deepest = 0;
    for (const ExpectedCount& e : c.expected) deepest = std::max(deepest, e.depth);
    for (const ExpectedCount& e : c.expected)
      if (depth == 0 || e.depth == depth || (depth == -1 && e.depth == deepest)) sum += e.nodes;
  }
  return sum;
}

TEST(SuiteFiles, EveryFileHasItsNumberOfCases) {
  SKIP_WITHOUT_SHARED_DATA();
  const std::pair<const char*, std::size_t> files[] = {
      {"standard.epd", 128}, {"perft.epd", 174},     {"perft-ferdy-double-checks.epd", 184},
      {"tricky.perft", 19},  {"random.perft", 6838}, {"fischer.epd", 960},
  };
  for (const auto& [name, cases] : files) EXPECT_EQ(shared_suite(name).cases.size(), cases) << name;
}

TEST(SuiteFiles, TotalsMatchTheReadme) {
  SKIP_WITHOUT_SHARED_DATA();
  EXPECT_EQ(to_string_u128(total(shared_suite("standard.epd"), -1)), "4603093531");
  EXPECT_EQ(to_string_u128(total(shared_suite("fischer.epd"), 6)), "506736009395");
  EXPECT_EQ(to_string_u128(total(shared_suite("random.perft"), 0)), "4322280020055");
}

TEST(SuiteFiles, NamesAndSourcesPointBackIntoTheFiles) {
  SKIP_WITHOUT_SHARED_DATA();
  const Suite tricky = shared_suite("tricky.perft");
  ASSERT_FALSE(tricky.cases.empty());
  EXPECT_EQ(tricky.cases[0].name, "pos-2");
  EXPECT_EQ(tricky.cases[0].source, "tricky.perft:7");
  const Suite ferdy = shared_suite("perft-ferdy-double-checks.epd");
  ASSERT_FALSE(ferdy.cases.empty());
  EXPECT_EQ(ferdy.cases[0].fen, "8/5kpp/8/8/1p3P2/6PP/r3KP2/1R1q4 w - - 0 1");
  EXPECT_EQ(counts(ferdy.cases[0]), "4=23441");
}

TEST(SuiteFiles, EveryPositionParses) {
  SKIP_WITHOUT_SHARED_DATA();
  for (const char* name : REFERENCE_SUITES) {
    for (const SuiteCase& c : shared_suite(name).cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      EXPECT_TRUE(parsed) << c.source << ": " << parsed.error << "  " << c.fen;
    }
  }
}

// ---- perftkit verify ---------------------------------------------------------------------

std::string test_data(const char* name) {
  return (std::filesystem::path(perftkit::test_paths::test_data_dir()) / name).string();
}

struct VerifyRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

VerifyRun verify(VerifyOptions options) {
  std::ostringstream out, err;
  VerifyRun run;
  options.backend = Backend::CPU;
  run.exit_code = run_verify(options, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// The last line of text (without its newline).
std::string last_line(const std::string& text) {
  const std::string body = text.ends_with('\n') ? text.substr(0, text.size() - 1) : text;
  return body.substr(body.rfind('\n') + 1);
}

TEST(SuiteVerify, HandWrittenSuitesPass) {
  VerifyOptions options;
  options.files = {test_data("small.epd"), test_data("small.perft")};
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out, "30 passed, 0 failed\n");
  EXPECT_NE(run.err.find("time "), std::string::npos) << run.err;
}

TEST(SuiteVerify, WrongCountIsAMismatchWithExitCodeOne) {
  VerifyOptions options;
  options.files = {test_data("wrong.epd")};
  options.threads = 2;
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "MISMATCH " + test_data("wrong.epd") +
                         ":1 depth 3 expected 8903 got 8902  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                         "4 passed, 1 failed\n");
}

TEST(SuiteVerify, MalformedLineAndInvalidFenFailWithTheirLineNumbers) {
  VerifyOptions options;
  options.files = {test_data("malformed.epd")};
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("ERROR " + test_data("malformed.epd") + ":2: bad count in 'D2 19x'\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("ERROR " + test_data("malformed.epd") + ":3: invalid FEN: "), std::string::npos) << run.out;
  EXPECT_EQ(last_line(run.out), "2 passed, 2 failed");
}

TEST(SuiteVerify, DepthAndNodeLimitsSkipChecks) {
  VerifyOptions options;
  options.files = {test_data("small.epd")};
  options.max_depth = 2;
  EXPECT_EQ(verify(options).out, "12 passed, 0 failed\n");
  options.max_depth = SUITE_MAX_DEPTH;
  options.max_nodes = 10000;
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.out, "15 passed, 0 failed\n");
  EXPECT_NE(run.err.find("skipped 6 checks"), std::string::npos) << run.err;
}

TEST(SuiteVerify, QuietWritesNothingOnStderr) {
  VerifyOptions options;
  options.files = {test_data("small.epd")};
  options.max_depth = 1;
  options.quiet = true;
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "6 passed, 0 failed\n");
  EXPECT_EQ(run.err, "");
}

TEST(SuiteVerify, JsonSummaryListsTheFailures) {
  VerifyOptions options;
  options.files = {test_data("wrong.epd")};
  options.json = true;
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out.rfind("{\"passed\":4,\"failed\":1,\"skipped\":0,", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("\"failures\":[{\"kind\":\"mismatch\",\"source\":\""), std::string::npos) << run.out;
  EXPECT_NE(
      run.out.find("\"depth\":3,\"expected\":8903,\"expected_string\":\"8903\",\"got\":8902,\"got_string\":\"8902\"}"),
      std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("MISMATCH"), std::string::npos);
}

TEST(SuiteVerify, UnreadableFileIsBadInputAndRunsNothing) {
  VerifyOptions options;
  options.files = {test_data("small.epd"), "/nonexistent/perftkit/suite.epd"};
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("/nonexistent/perftkit/suite.epd"), std::string::npos) << run.err;
}

TEST(SuiteVerify, FileWithoutCasesIsBadInput) {
  const std::filesystem::path empty = std::filesystem::temp_directory_path() / "perftkit_test_empty_suite.epd";
  { std::ofstream(empty) << "# nothing here\n"; }
  VerifyOptions options;
  options.files = {empty.string()};
  const VerifyRun run = verify(options);
  std::filesystem::remove(empty);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("no perft cases"), std::string::npos) << run.err;
}

TEST(SuiteVerify, EveryReferenceSuiteUpTo100kNodes) {
  SKIP_WITHOUT_SHARED_DATA();
  VerifyOptions options;
  for (const char* name : REFERENCE_SUITES) options.files.push_back((shared_perft_dir() / name).string());
  options.max_nodes = 100000;
  const VerifyRun run = verify(options);
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(last_line(run.out), "26438 passed, 0 failed") << run.out;
}

// Every count of every reference suite (about 5e12 nodes: run it on a GPU): ctest -L slow.
TEST(SuiteVerify, FullDepth) {
  if (!std::getenv("PERFTKIT_FULL_DEPTH")) GTEST_SKIP() << "set PERFTKIT_FULL_DEPTH=1 to run every depth";
  SKIP_WITHOUT_SHARED_DATA();
  VerifyOptions options;
  for (const char* name : REFERENCE_SUITES) options.files.push_back((shared_perft_dir() / name).string());
  std::ostringstream out, err;
  EXPECT_EQ(run_verify(options, out, err), 0) << out.str() << err.str();
  EXPECT_NE(last_line(out.str()).find(" passed, 0 failed"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace perftkit
