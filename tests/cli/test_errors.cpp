// Bad command lines name the word that is wrong (#16): an unknown command, option or
// positional, and a table size that is negative or larger than the memory there is.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <iterator>
#include <string>

#include "support/cli_runner.hpp"
#include "support/sanitized_build.hpp"
#include "support/scratch_dir.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;

void expect_bad_usage(const std::string& args, const std::string& message) {
  const CommandResult result = run_perftkit(args);
  EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.output;
  EXPECT_NE(result.output.find(message), std::string::npos) << args << "\n" << result.output;
}

TEST(CliErrors, TheUnknownWordIsNamed) {
  expect_bad_usage("bogus", "unknown command 'bogus' (commands: perft, verify,");
  expect_bad_usage("perft --depht 1", "perft: unknown option '--depht'");
  expect_bad_usage("perft 5", "perft: unexpected argument '5'");
  expect_bad_usage("perft --depth 2 --bogus", "perft: unknown option '--bogus'");
  // A missing option with nothing unknown is still reported as missing.
  expect_bad_usage("perft", "--depth is required");
}

// Every command-line error has the README's prefix and names the choices in words; a word
// close to a command or option is suggested; --threads 0 means every core everywhere (#65).
TEST(CliErrors, ParseErrorsSpeakOneLanguage) {
  expect_bad_usage("perft --depth abc", "perftkit: error: --depth: 'abc' is not a number from 0 to 64");
  expect_bad_usage("perft --depth 1 --backend gpu",
                   "perftkit: error: --backend: 'gpu' is not one of auto, cpu, cuda, pipeline");
  expect_bad_usage("classify --input xml x.fen",
                   "perftkit: error: --input: 'xml' is not one of auto, csv, epd, fen, jsonl, pgn, tsv");
  expect_bad_usage("perft --depht 1", "perft: unknown option '--depht' (did you mean '--depth'?)");
  expect_bad_usage("perfy --depth 1", "unknown command 'perfy' (did you mean 'perft'?)");
  expect_bad_usage("perft --depth 1 --frobnicate", "perft: unknown option '--frobnicate'\n");
  const CommandResult all_cores = run_perftkit("perft --depth 3 --threads 0");
  EXPECT_EQ(all_cores.exit_code, 0) << all_cores.output;
  EXPECT_NE(all_cores.output.find("Nodes searched: 8902"), std::string::npos) << all_cores.output;
}

// --progress without a work dir shows the CPU backend's units: a first line when they are
// known, a last one with all done and the time taken (#65: perft -d 9 was silent for 29 s).
TEST(CliErrors, PerftProgressCountsItsUnits) {
  const CommandResult run = run_perftkit("perft --depth 6 --progress --threads 2 2>&1");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::regex_search(run.output, std::regex(R"(perft 6: \d+ of \d+ units)"))) << run.output;
  std::smatch last;
  ASSERT_TRUE(std::regex_search(run.output, last, std::regex(R"(perft 6: (\d+) of (\d+) units in )"))) << run.output;
  EXPECT_EQ(last[1].str(), last[2].str()) << run.output;
  EXPECT_NE(run.output.find("Nodes searched: 119060324"), std::string::npos) << run.output;
  const CommandResult quiet = run_perftkit("perft --depth 6 --threads 2 2>&1");
  EXPECT_EQ(quiet.output.find(" units"), std::string::npos) << quiet.output;
}

// #65's acceptance run: a perft of a few seconds shows the share done on stderr. (Perft 6
// under a sanitizer, which takes as long.)
TEST(CliErrors, PerftProgressShowsAPercentage) {
  const std::string depth = PERFTKIT_TEST_SANITIZED ? "6" : "7";
  const CommandResult run = run_perftkit("perft --depth " + depth + " --hash 0 --threads 1 --progress 2>&1 >/dev/null");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::regex_search(run.output, std::regex("perft " + depth + R"(: \d+ of \d+ units, \d+\.\d%)")))
      << run.output;
}

TEST(CliErrors, AnOptionIsNeverTakenAsAValue) {
  expect_bad_usage("perft --depth 1 --moves --threads 1", "--moves: expects a value, not the option '--threads'");
  expect_bad_usage("classify --only --summary", "--only: expects a value, not the option '--summary'");
  const CommandResult ok = run_perftkit("perft --depth 2 --moves e2e4 --threads 1");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("Nodes searched: 600"), std::string::npos) << ok.output;  // perft(2) after 1.e4
}

// A move in SAN gets its UCI spelling; text that is no move says it is not UCI; a UCI move
// that cannot be played is not legal.
TEST(CliErrors, MovesNameTheirNotation) {
  expect_bad_usage("perft --depth 1 --moves e2e4 g8f6 Nf3", "move 3 'Nf3' is SAN; --moves takes UCI notation: 'g1f3'");
  expect_bad_usage("perft --depth 1 --moves xx", "move 1 'xx' is not a UCI move");
  expect_bad_usage("perft --depth 1 --moves e2e4 Nf5", "move 2 'Nf5' is not a UCI move");
  expect_bad_usage("perft --depth 1 --moves e2e5", "move 1 'e2e5' is not legal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP");
}

TEST(CliErrors, AFenIsJudgedByItsBoardFirst) {
  expect_bad_usage("perft --depth 1 --fen 'this is not a fen'", "invalid FEN: board:");
  // A good board with a bad clock still names the clock.
  expect_bad_usage("perft --depth 1 --fen '4k3/8/8/8/8/8/8/4K3 w - - x 1'", "clock");
}

TEST(CliErrors, VerifyOnAFileWithoutASuiteIsBadInput) {
  const std::string pgn = std::string(test_paths::test_data_dir()) + "/classify_games.pgn";
  expect_bad_usage("verify '" + pgn + "'", "classify_games.pgn: no perft cases found (");
  // A binary file is told by a NUL byte near its start, as classify tells one (#63).
  expect_bad_usage("verify '" + std::string(test_paths::perftkit_binary()) + "'",
                   "perftkit: binary data (a NUL byte at byte ");
  const CommandResult binary = run_perftkit("verify '" + std::string(test_paths::perftkit_binary()) + "'");
  EXPECT_LT(binary.output.size(), 400u) << "the file's bytes must not be echoed";

  // Without a NUL byte, a line's unreadable bytes reach the message as \xNN, never raw.
  const testing_support::ScratchDir dir("verify-control-bytes");
  const std::string file = dir / "damaged.epd";
  std::ofstream(file) << "startpos ;\x05\x1b[2J\xcd 5\n";
  const CommandResult damaged = run_perftkit("verify '" + file + "'");
  EXPECT_EQ(damaged.exit_code, 2) << damaged.output;
  EXPECT_NE(damaged.output.find("unknown operation '\\x05\\x1b[2J\\xcd 5'"), std::string::npos) << damaged.output;
  for (const char ch : damaged.output)
    EXPECT_TRUE(ch == '\n' || (ch >= 0x20 && ch < 0x7f))
        << "byte " << int(std::uint8_t(ch)) << " in " << damaged.output;
}

// Failures are printed in input order, however the checks were scheduled (the biggest run
// first): line 1's small wrong count comes before line 2's bigger one.
TEST(CliErrors, VerifyPrintsFailuresInInputOrder) {
  const testing_support::ScratchDir dir("verify-order");
  const std::string suite = dir / "order.epd";
  {
    std::ofstream out(suite);
    out << "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 6 ;D2 99\n";
    out << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 21 ;D3 8903 ;D4 197280\n";
  }
  for (const char* threads : {"1", "2"}) {
    const CommandResult result = run_perftkit("verify '" + suite + "' --threads " + threads + " 2>/dev/null");
    EXPECT_EQ(result.exit_code, 1) << result.output;
    const std::size_t first = result.output.find("order.epd:1 depth 1");
    const std::size_t second = result.output.find("order.epd:1 depth 2");
    const std::size_t third = result.output.find("order.epd:2 depth 1");
    const std::size_t fourth = result.output.find("order.epd:2 depth 4");
    ASSERT_NE(fourth, std::string::npos) << result.output;
    EXPECT_TRUE(first < second && second < third && third < fourth) << result.output;
  }
}

TEST(CliErrors, TableSizesAreCheckedWithTheirLimit) {
  expect_bad_usage("perft --depth 4 --hash -5", "--hash: a table size is a whole number of MB (0 or more), not '-5'");
  expect_bad_usage("perft --depth 4 --hash 999999999999", "MB of memory available");
  const CommandResult ok = run_perftkit("perft --depth 4 --hash 16");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("Nodes searched: 197281"), std::string::npos) << ok.output;
}

// A binary file is named and refused (exit 2), also inside a compressed stream; its bytes
// never reach a row.
TEST(CliErrors, ClassifyRefusesABinaryFile) {
  const std::string binary = test_paths::perftkit_binary();
  const CommandResult plain = run_perftkit("classify '" + binary + "' 2>&1 >/dev/null");
  EXPECT_EQ(plain.exit_code, 2) << plain.output;
  EXPECT_NE(plain.output.find(binary + ": binary data (a NUL byte at byte "), std::string::npos) << plain.output;
  const CommandResult packed = testing_support::run_shell("head -c 4096 '" + binary + "' | gzip -c | '" + binary +
                                                          "' classify - 2>&1 >/dev/null");
  EXPECT_EQ(packed.exit_code, 2) << packed.output;
  EXPECT_NE(packed.output.find("stdin: binary data (a NUL byte at byte "), std::string::npos) << packed.output;
}

// A NUL byte past the first 4 KiB is damage in one record of a text file, not a binary file:
// 50,000 FEN lines, one with a NUL, 50,000 more give 100,001 rows, the damaged one rejected
// with its line and reason; CSV and JSON Lines rows and PGN games likewise (#63, case 2).
TEST(CliErrors, ClassifyReadsPastADamagedLine) {
  const testing_support::ScratchDir dir("classify-damaged");
  const std::string fen = "K7/8/8/8/8/8/8/7k w - - 0 1";
  const std::string lines_file = dir / "damaged.fen";
  {
    std::ofstream out(lines_file, std::ios::binary);
    for (int i = 0; i < 50000; ++i) out << fen << " a" << i << "\n";
    out << fen << std::string(1, '\0') << " b\n";
    for (int i = 0; i < 50000; ++i) out << fen << " c" << i << "\n";
  }
  const std::string binary = test_paths::perftkit_binary();
  const CommandResult rows =
      testing_support::run_shell("'" + binary + "' classify '" + lines_file + "' 2>/dev/null | wc -l");
  EXPECT_EQ(rows.exit_code, 0) << rows.output;
  EXPECT_EQ(std::stoul(rows.output), 100002u) << rows.output;  // the header and every line
  const CommandResult damaged =
      testing_support::run_shell("'" + binary + "' classify '" + lines_file + "' 2>&1 | grep -a -v ',1,,' ");
  EXPECT_NE(
      damaged.output.find("damaged.fen:50001," + fen + ",,0,line: a NUL byte at byte 28 of the line (damaged text)"),
      std::string::npos)
      << damaged.output;
  EXPECT_NE(damaged.output.find("classify: 1 of 100001 rows rejected"), std::string::npos) << damaged.output;
  const CommandResult nul_out =
      testing_support::run_shell("'" + binary + "' classify '" + lines_file + "' 2>/dev/null | tr -cd '\\000' | wc -c");
  EXPECT_EQ(nul_out.output, "0\n") << "no NUL byte reaches a row";

  const std::string csv = dir / "damaged.csv", jsonl = dir / "damaged.jsonl", pgn = dir / "damaged.pgn";
  {
    std::ofstream c(csv, std::ios::binary), j(jsonl, std::ios::binary), g(pgn, std::ios::binary);
    c << "fen,id\n";
    for (int i = 0; i < 300; ++i) {
      c << fen << ",a" << i << "\n";
      j << "{\"fen\":\"" << fen << "\"}\n";
      g << "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n";
    }
    c << fen << ",b" << std::string(1, '\0') << "b\n" << fen << ",c\n";
    j << "{\"fen\":\"" << fen << std::string(1, '\0') << "\"}\n{\"fen\":\"" << fen << "\"}\n";
    g << "[Event \"y\"]\n\n1. e4 e" << std::string(1, '\0') << "5 *\n\n[Event \"z\"]\n\n1. d4 *\n";
  }
  const struct {
    std::string file, rejected, summary;
  } cases[] = {
      {csv, "damaged.csv:302,\"" + fen + ",b\",,0,line: a NUL byte at byte 30 of the line (damaged text)",
       "1 of 302 rows rejected"},
      {jsonl,
       "damaged.jsonl:301,\"{\"\"fen\"\":\"\"" + fen + "\",,0,line: a NUL byte at byte 36 of the line (damaged text)",
       "1 of 302 rows rejected"},
      {pgn, "damaged.pgn:game 301:ply 0,,,0,game 301: a NUL byte in its text (damaged text)",
       "1 of 1203 rows rejected"}};
  for (const auto& c : cases) {
    const CommandResult out = testing_support::run_shell("'" + binary + "' classify '" + c.file + "' 2>&1");
    EXPECT_EQ(out.exit_code, 0) << c.file << out.output;
    EXPECT_NE(out.output.find(c.rejected), std::string::npos) << out.output.substr(out.output.size() - 600);
    const std::size_t summary = out.output.find("classify: ");
    EXPECT_NE(out.output.find(c.summary), std::string::npos)
        << c.file << (summary == std::string::npos ? std::string(" no summary") : out.output.substr(summary, 80));
  }
}

// An option for another kind of input is refused with exit 2 before anything is written
// (#63, case 6): --keep-columns on PGN, --tags on CSV, --fen-column and --positions on FEN
// lines; so is a --keep-columns name the CSV header lacks, and stdout stays empty (the
// header line used to come first). With inputs of both kinds, each option applies.
TEST(CliErrors, ClassifyRefusesOptionsForAnotherKindOfInput) {
  const testing_support::ScratchDir dir("classify-options");
  const std::string pgn = dir / "games.pgn", csv = dir / "table.csv", fen = dir / "lines.fen", err = dir / "err";
  std::ofstream(pgn) << "[White \"A\"]\n\n1. e4 e5 *\n";
  std::ofstream(csv) << "fen,id\nK7/8/8/8/8/8/8/7k w - - 0 1,x\n";
  std::ofstream(fen) << "K7/8/8/8/8/8/8/7k w - - 0 1 x\n";
  const struct {
    std::string args, message;
  } cases[] = {
      {"'" + pgn + "' --keep-columns Elo",
       "--keep-columns applies to CSV, TSV and JSON Lines input; '" + pgn + "' is PGN"},
      {"'" + csv + "' --tags White", "--tags applies to PGN input; '" + csv + "' is CSV"},
      {"'" + fen + "' --fen-column fen",
       "--fen-column applies to CSV, TSV and JSON Lines input; '" + fen + "' is FEN/EPD lines"},
      {"'" + fen + "' --positions final", "--positions applies to PGN input"},
      {"'" + csv + "' --keep-columns nope", csv + ": no column 'nope' in the header (fen,id)"},
  };
  const std::string binary = test_paths::perftkit_binary();
  for (const auto& c : cases) {
    const CommandResult out = testing_support::run_shell("'" + binary + "' classify " + c.args + " 2>'" + err + "'");
    EXPECT_EQ(out.exit_code, 2) << c.args;
    EXPECT_EQ(out.output, "") << c.args;
    std::ifstream in(err);
    const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(message.find("perftkit: error: " + c.message), std::string::npos) << message;
  }
  const CommandResult both = testing_support::run_shell("'" + binary + "' classify '" + pgn + "' '" + csv +
                                                        "' --tags White --keep-columns id 2>&1");
  EXPECT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find(",White,id\n"), std::string::npos) << both.output;
}

// --summary with the rows going to a terminal gives the counts, not the rows scrolling past
// them; piped, the rows are written as ever (#65). script(1) gives the command a terminal.
TEST(CliErrors, ClassifySummaryOnATerminalLeavesOutTheRows) {
  if (testing_support::run_shell("command -v script").exit_code != 0) GTEST_SKIP() << "no script(1)";
  const testing_support::ScratchDir dir("classify-terminal");
  const std::string fen = dir / "lines.fen";
  std::ofstream(fen) << "startpos\n8/8/8/4k3/8/8/8/4K3 w - - 0 1\n";
  const std::string command = "'" + std::string(test_paths::perftkit_binary()) + "' classify '" + fen + "' --summary";
  const CommandResult on_terminal = testing_support::run_shell("script -qec \"" + command + "\" /dev/null");
  EXPECT_EQ(on_terminal.exit_code, 0) << on_terminal.output;
  EXPECT_NE(on_terminal.output.find("classify: 2 rows not shown: --summary on a terminal gives the counts"),
            std::string::npos)
      << on_terminal.output;
  EXPECT_EQ(on_terminal.output.find("source,fen"), std::string::npos) << on_terminal.output;
  const CommandResult piped = testing_support::run_shell(command + " 2>/dev/null");
  EXPECT_NE(piped.output.find("source,fen"), std::string::npos) << piped.output;
  EXPECT_NE(piped.output.find("lines.fen:2,8/8/8/4k3/8/8/8/4K3 w - - 0 1"), std::string::npos) << piped.output;
}

// Control bytes in a rejected line (or in an id) are written as \xNN in CSV and TSV rows,
// so that Python's csv module and other readers can read every row.
TEST(CliErrors, ClassifyRowsCarryNoControlBytes) {
  const std::string lines = "printf 'startpos\\001 id\\177,x\\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 a\\002b\\n' | '" +
                            std::string(test_paths::perftkit_binary()) + "' classify ";
  for (const char* format : {"csv", "tsv"}) {
    const CommandResult rows = testing_support::run_shell(lines + "--format " + format + " 2>/dev/null");
    EXPECT_EQ(rows.exit_code, 0) << rows.output;
    for (const char ch : rows.output)
      EXPECT_TRUE((static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F) || ch == '\n' || ch == '\t')
          << format << ": byte " << int(static_cast<unsigned char>(ch)) << " in\n"
          << rows.output;
    EXPECT_NE(rows.output.find("startpos\\x01 id\\x7f,x"), std::string::npos) << rows.output;
    EXPECT_NE(rows.output.find("a\\x02b"), std::string::npos) << rows.output;
  }
}

// The table printed on a "hash: N MB" line, in MB (-1 when there is none).
long hash_megabytes(const std::string& output) {
  const std::size_t at = output.find("hash: ");
  return at == std::string::npos ? -1 : std::stol(output.substr(at + 6));
}

// A deep perft of a tiny tree (a bare endgame stops growing after a few plies) gets a table
// for the positions it will store, not a quarter of the memory (it was 5.9 GB and 4 s).
TEST(CliErrors, ADeepPerftOfASmallTreeGetsASmallTable) {
  const CommandResult r = run_perftkit("perft --depth 40 --fen 'k7/8/8/8/8/8/8/K7 w - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const long mb = hash_megabytes(r.output);
  EXPECT_GT(mb, 0) << r.output;
  EXPECT_LE(mb, 64) << r.output;
}

// --work-dir and `work` size their default table by the same rule, and print it (it was a
// quarter of the memory, unprinted, for a perft 5).
TEST(CliErrors, WorkDirTablesFollowTheWork) {
  const testing_support::ScratchDir dir("work-hash");
  const CommandResult run = run_perftkit("perft --depth 5 --work-dir '" + dir / "wd" + "' --shards 16 --threads 1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Nodes searched: 4865609"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("MB per process (default: what this depth needs"), std::string::npos) << run.output;
  EXPECT_GT(hash_megabytes(run.output), 0) << run.output;
  EXPECT_LE(hash_megabytes(run.output), 64) << run.output;

  const CommandResult prepared = run_perftkit("perft --depth 5 --work-dir '" + dir / "wd2" + "' --shards 4 --prepare");
  ASSERT_EQ(prepared.exit_code, 0) << prepared.output;
  const CommandResult work = run_perftkit("work '" + dir / "wd2" + "' --threads 1 --hash 32");
  ASSERT_EQ(work.exit_code, 0) << work.output;
  EXPECT_EQ(hash_megabytes(work.output), 32) << work.output;
}

// bench --json -: stdout holds the JSON alone (the table goes to stderr), for jq and scripts.
TEST(CliOutput, BenchJsonOnStdoutIsJsonAlone) {
  const std::string suite = std::string(test_paths::test_data_dir()) + "/small.epd";
  const std::string args = "bench --suite '" + suite + "' --max-nodes 1000 --repeats 1 --warmup 0 --json -";
  const CommandResult out =
      testing_support::run_shell(std::string(test_paths::perftkit_binary()) + " " + args + " 2>/dev/null");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  ASSERT_FALSE(out.output.empty());
  EXPECT_EQ(out.output.front(), '{') << out.output;
  EXPECT_EQ(out.output[out.output.find_last_not_of('\n')], '}') << out.output;
  EXPECT_NE(out.output.find("\"expected_signature\""), std::string::npos) << out.output;
  const CommandResult err =
      testing_support::run_shell(std::string(test_paths::perftkit_binary()) + " " + args + " 2>&1 >/dev/null");
  EXPECT_EQ(err.output.find('{'), std::string::npos) << err.output;  // the table, not the JSON
  EXPECT_FALSE(err.output.empty());
  // A bare --json is the same, as every other command's flag (#65); before an option too.
  const std::string bare = "bench --json --suite '" + suite + "' --max-nodes 1000 --repeats 1 --warmup 0";
  const CommandResult flag =
      testing_support::run_shell(std::string(test_paths::perftkit_binary()) + " " + bare + " 2>/dev/null");
  ASSERT_EQ(flag.exit_code, 0) << flag.output;
  EXPECT_EQ(flag.output.rfind("{\"tool\":\"perftkit bench\"", 0), 0u) << flag.output;
  EXPECT_NE(flag.output.find("\"expected_signature\""), std::string::npos) << flag.output;
}

}  // namespace
}  // namespace perftkit
