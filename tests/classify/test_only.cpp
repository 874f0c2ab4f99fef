// `classify --only` and `--game-over`: only the rows with a selected fact are written, and
// `--summary` still counts every row. The corpus is written here with a known number of
// stalemates, mates and dead positions.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/list_arguments.hpp"
#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_perftkit;
using testing_support::run_shell;
using testing_support::ScratchDir;

constexpr const char* STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";  // h8: g8, g7, h7 all covered
constexpr const char* CHECKMATE = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";  // the queen g7, guarded by the king
constexpr const char* DEAD = "8/8/4k3/8/8/3K4/8/8 w - - 0 1";        // king against king
constexpr const char* ORDINARY = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

using testing_support::lines_of;

// The corpus: 7 stalemates, 5 mates, 4 dead positions and 39 ordinary ones, interleaved.
std::string corpus() {
  std::string text;
  for (int i = 0; i < 55; ++i) {
    const char* fen = i % 8 == 1 ? STALEMATE : i % 11 == 2 ? CHECKMATE : i % 17 == 3 ? DEAD : ORDINARY;
    text += std::string(fen) + "\n";
  }
  return text;
}

int count_of(const std::string& text, const char* fen) {
  int n = 0;
  for (const std::string& line : lines_of(text)) n += line == fen;
  return n;
}

TEST(ClassifyOnly, StalemateWritesExactlyTheRowsTheSummaryCounts) {
  ScratchDir dir("classify-only");
  const std::string text = corpus();
  std::ofstream(dir / "corpus.fen") << text;
  const int stalemates = count_of(text, STALEMATE);
  ASSERT_EQ(stalemates, 7);
  const CommandResult result = run_perftkit("classify '" + (dir / "corpus.fen") +
                                            "' --only stalemate --summary-json '" + (dir / "summary.json") + "'");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> rows = lines_of(result.output);
  ASSERT_EQ(rows.size(), 1u + stalemates) << result.output;  // the header, then the stalemates
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_NE(rows[i].find(STALEMATE), std::string::npos) << rows[i];
  std::ifstream summary_file(dir / "summary.json");
  const std::string summary((std::istreambuf_iterator<char>(summary_file)), {});
  EXPECT_NE(summary.find("\"stalemate\":" + std::to_string(stalemates)), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"rows\":55"), std::string::npos) << summary;  // every row counted
}

TEST(ClassifyOnly, SeveralFactsAndGameOver) {
  ScratchDir dir("classify-only-many");
  const std::string text = corpus();
  std::ofstream(dir / "corpus.fen") << text;
  const int mates = count_of(text, CHECKMATE), stalemates = count_of(text, STALEMATE), dead = count_of(text, DEAD);
  const CommandResult both =
      run_perftkit("classify '" + (dir / "corpus.fen") + "' --only checkmate,stalemate --no-header");
  EXPECT_EQ(lines_of(both.output).size(), std::size_t(mates + stalemates)) << both.output;
  const CommandResult over = run_perftkit("classify '" + (dir / "corpus.fen") + "' --game-over --no-header");
  EXPECT_EQ(lines_of(over.output).size(), std::size_t(mates + stalemates + dead)) << over.output;
  const CommandResult dead_only =
      run_perftkit("classify '" + (dir / "corpus.fen") + "' --only dead_by_material --no-header");
  EXPECT_EQ(lines_of(dead_only.output).size(), std::size_t(dead)) << dead_only.output;
  const CommandResult unknown = run_perftkit("classify '" + (dir / "corpus.fen") + "' --only stalemates");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("--only: unknown fact 'stalemates'"), std::string::npos) << unknown.output;
}

// List options take spaces as well as commas (--only checkmate stalemate), and a list ends at
// the first word that is not an item, so the file after it stays a file.
TEST(ClassifyOnly, ListsTakeSpacesAsWellAsCommas) {
  ScratchDir dir("classify-only-spaces");
  const std::string text = corpus();
  std::ofstream(dir / "corpus.fen") << text;
  const std::size_t wanted = std::size_t(count_of(text, CHECKMATE) + count_of(text, STALEMATE));
  const CommandResult before =
      run_perftkit("classify --only checkmate stalemate '" + (dir / "corpus.fen") + "' --no-header");
  EXPECT_EQ(before.exit_code, 0) << before.output;
  EXPECT_EQ(lines_of(before.output).size(), wanted) << before.output;
  const CommandResult after =
      run_perftkit("classify '" + (dir / "corpus.fen") + "' --only checkmate stalemate --no-header");
  EXPECT_EQ(lines_of(after.output).size(), wanted) << after.output;

  std::ofstream(dir / "games.pgn") << "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n";
  const CommandResult tags =
      run_perftkit("classify --tags White Black --columns game ply '" + (dir / "games.pgn") + "'");
  EXPECT_EQ(tags.exit_code, 0) << tags.output;
  const std::vector<std::string> rows = lines_of(tags.output);
  ASSERT_EQ(rows.size(), 4u) << tags.output;  // the header and plies 0, 1 and 2
  EXPECT_NE(rows[0].find(",game,ply,White,Black"), std::string::npos) << rows[0];
  EXPECT_NE(rows[3].find(",1,2,A,B"), std::string::npos) << rows[3];
}

TEST(ClassifyOnly, ListWordsJoinUpToTheFirstWordThatIsNotAnItem) {
  using Words = std::vector<std::string>;
  EXPECT_EQ(join_list_words({"perftkit", "classify", "--only", "check", "stalemate", "x.fen"}),
            (Words{"perftkit", "classify", "--only", "check,stalemate", "x.fen"}));
  EXPECT_EQ(join_list_words({"perftkit", "classify", "--only=check", "checkmate,invalid", "-o", "out.csv"}),
            (Words{"perftkit", "classify", "--only=check,checkmate,invalid", "-o", "out.csv"}));
  // Open lists end at an option or a word that names a file, existing or not.
  EXPECT_EQ(join_list_words({"perftkit", "classify", "--tags", "White", "WhiteElo", "games.pgn.zst"}),
            (Words{"perftkit", "classify", "--tags", "White,WhiteElo", "games.pgn.zst"}));
  EXPECT_EQ(join_list_words({"perftkit", "classify", "--keep-columns", "id", "rating", "--summary", "p.csv"}),
            (Words{"perftkit", "classify", "--keep-columns", "id,rating", "--summary", "p.csv"}));
  // After --, every word is a file; and other commands are left alone.
  EXPECT_EQ(join_list_words({"perftkit", "classify", "--only", "check", "--", "stalemate"}),
            (Words{"perftkit", "classify", "--only", "check", "--", "stalemate"}));
  EXPECT_EQ(join_list_words({"perftkit", "perft", "--only", "check", "stalemate"}),
            (Words{"perftkit", "perft", "--only", "check", "stalemate"}));
}

}  // namespace
}  // namespace perftkit
