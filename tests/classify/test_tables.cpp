// `classify` over tables: a puzzle-style CSV (the FEN in column 2, a header row) and an
// eval-style JSON Lines file (a 4-field FEN under "fen"), hand-made in tests/data/, with other
// columns carried over by --keep-columns.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/test_paths.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;
using testing_support::run_shell;

using testing_support::lines_of;

std::string data(const std::string& name) { return std::string(test_paths::test_data_dir()) + "/" + name; }

TEST(ClassifyTables, PuzzleCsvKeepsItsColumns) {
  const CommandResult result =
      run_perftkit("classify '" + data("puzzles.csv") + "' --keep-columns PuzzleId,Rating,Themes");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> rows = lines_of(result.output);
  ASSERT_GE(rows.size(), 5u) << result.output;
  EXPECT_EQ(rows[0].substr(rows[0].find(",flags,")), ",flags,PuzzleId,Rating,Themes");
  // Line 2 of the file (after the header): the FEN as given, its columns after the flags.
  EXPECT_EQ(rows[1].substr(0, rows[1].find(",,1,")),
            data("puzzles.csv") + ":2,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24");
  EXPECT_EQ(rows[1].substr(rows[1].rfind(",,") + 2), "00008,1913,crushing hangingPiece long middlegame");
  EXPECT_EQ(rows[2].substr(rows[2].rfind(",,") + 2), "0000D,1452,advantage endgame short");  // a quoted field
  // A bad FEN is a rejected row that keeps its columns too.
  EXPECT_NE(rows[4].find(":5,not a fen,,0,\"fen: expected 4 to 6 fields, got 3\""), std::string::npos) << rows[4];
  EXPECT_EQ(rows[4].substr(rows[4].rfind(",,") + 2), "000bad,1500,short");
}

TEST(ClassifyTables, TheFenColumnByNumberAndTsv) {
  const CommandResult by_number =
      run_perftkit("classify --input csv --fen-column 2 --keep-columns 1 --no-header '" + data("puzzles.csv") + "'");
  const CommandResult by_name =
      run_perftkit("classify --fen-column fen --keep-columns puzzleid --no-header '" + data("puzzles.csv") + "'");
  EXPECT_EQ(by_number.output, by_name.output);  // names match without regard to case
  const CommandResult tsv =
      run_shell("tr ',' '\\t' < '" + data("puzzles.csv") + "' | grep -v Kings_Pawn | " + test_paths::perftkit_binary() +
                " classify --input tsv --keep-columns Rating --no-header - 2>/dev/null");
  EXPECT_EQ(lines_of(tsv.output).size(), 3u) << tsv.output;
  EXPECT_NE(tsv.output.find("stdin:2,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,"), std::string::npos)
      << tsv.output;
  const CommandResult missing = run_perftkit("classify --keep-columns Score '" + data("puzzles.csv") + "'");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("no column 'Score' in the header"), std::string::npos) << missing.output;
}

TEST(ClassifyTables, EvalJsonLinesKeepsRawJsonValues) {
  const CommandResult csv =
      run_perftkit("classify '" + data("evals.jsonl") + "' --keep-columns note,knodes 2>/dev/null");
  EXPECT_EQ(csv.exit_code, 0) << csv.output;
  const std::vector<std::string> rows = lines_of(csv.output);
  ASSERT_EQ(rows.size(), 5u) << csv.output;
  // A 4-field FEN gets its clocks; White's rook and king on the first rank: 12 + 5 = 17 moves.
  EXPECT_EQ(rows[3].find(data("evals.jsonl") + ":3,6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1,,1,,17,"), 0u) << rows[3];
  EXPECT_EQ(rows[2].substr(rows[2].find(",,\"a ") + 2), "\"a \"\"quoted\"\" remark\",");  // a JSON string as text
  EXPECT_NE(rows[4].find("jsonl: no \"\"fen\"\" field"), std::string::npos) << rows[4];
  EXPECT_EQ(rows[4].substr(rows[4].size() - 2), ",0");
  const CommandResult json =
      run_perftkit("classify '" + data("evals.jsonl") + "' --keep-columns evals,note --format jsonl 2>/dev/null");
  const std::vector<std::string> objects = lines_of(json.output);
  ASSERT_EQ(objects.size(), 4u) << json.output;
  EXPECT_NE(objects[1].find(",\"evals\":[{\"pvs\":[{\"cp\":0,\"line\":\"e7e4\"}],\"knodes\":5,\"depth\":8}],"
                            "\"note\":\"a \\\"quoted\\\" remark\"}"),
            std::string::npos)
      << objects[1];
}

}  // namespace
}  // namespace perftkit
