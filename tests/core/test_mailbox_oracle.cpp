// The mailbox oracle (tests/oracle/) must itself be right before the differential fuzz
// target trusts it: it is checked against published perft counts, then against perftkit on
// real positions.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "notation/fen.hpp"
#include "notation/suite.hpp"
#include "oracle/mailbox_board.hpp"
#include "perftkit/perft.hpp"
#include "support/standard_positions.hpp"
#include "support/test_paths.hpp"

namespace {

namespace tp = perftkit::test_positions;

oracle::Board oracle_board(std::string_view fen) {
  const std::optional<oracle::Board> board = oracle::board_from_fen(fen == "startpos" ? perftkit::START_FEN : fen);
  if (!board) throw std::invalid_argument("oracle cannot read FEN: " + std::string(fen));
  return *board;
}

struct Published {
  const char* fen;
  int depth;
  std::uint64_t nodes;
};

// The Chess Programming Wiki's perft positions, and python-chess's count of the queen-filled one.
constexpr Published PUBLISHED[] = {
    {perftkit::START_FEN.data(), 4, 197281},
    {tp::KIWIPETE, 3, 97862},
    {tp::POSITION3, 4, 43238},
    {tp::POSITION4, 3, 9467},
    {tp::POSITION4_MIRRORED, 3, 9467},
    {tp::POSITION5, 3, 62379},
    {tp::POSITION6, 3, 89890},
    {tp::MANY_MOVES, 2, 1419},
};

TEST(MailboxOracle, MatchesPublishedCounts) {
  for (const Published& p : PUBLISHED) EXPECT_EQ(oracle::perft(oracle_board(p.fen), p.depth), p.nodes) << p.fen;
}

TEST(MailboxOracle, ReadsEveryCastlingNotation) {
  const oracle::Board standard = oracle_board(tp::KIWIPETE);
  EXPECT_EQ(standard.castling_rook[oracle::WHITE][oracle::KING_WING], oracle::square_at(7, 0));
  EXPECT_EQ(standard.castling_rook[oracle::BLACK][oracle::QUEEN_WING], oracle::square_at(0, 7));
  const oracle::Board shredder = oracle_board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  EXPECT_EQ(shredder.castling_rook[oracle::WHITE][oracle::QUEEN_WING], oracle::square_at(5, 0));
  EXPECT_EQ(shredder.castling_rook[oracle::BLACK][oracle::KING_WING], oracle::square_at(7, 7));
  EXPECT_FALSE(oracle::board_from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1"));  // no rook for the right
  EXPECT_FALSE(oracle::board_from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1"));
}

// Every count of the standard and Chess960 suites up to a size the oracle counts quickly.
void expect_suite_counts(const char* file, std::uint64_t max_nodes) {
  const std::filesystem::path path = std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "perft" / file;
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  const perftkit::SuiteFileResult suite = perftkit::read_suite(path);
  ASSERT_TRUE(suite) << suite.error;
  int checked = 0;
  for (const perftkit::SuiteCase& c : suite->cases) {
    for (const perftkit::ExpectedCount& expected : c.expected) {
      if (expected.nodes > max_nodes) continue;
      EXPECT_EQ(oracle::perft(oracle_board(c.fen), expected.depth), std::uint64_t(expected.nodes))
          << c.source << " depth " << expected.depth;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(MailboxOracle, MatchesTheStandardSuite) { expect_suite_counts("standard.epd", 20000); }
TEST(MailboxOracle, MatchesTheChess960Suite) { expect_suite_counts("fischer.epd", 1000); }

// The comparison the fuzz target makes, on real game positions: perft 2 from both generators.
TEST(MailboxOracle, AgreesWithPerftkitOnRealPositions) {
  const std::filesystem::path path =
      std::filesystem::path(perftkit::test_paths::shared_data_dir()) / "positions/lichess-30K-games.txt";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  std::ifstream in(path);
  std::string line;
  int compared = 0;
  while (compared < 2000 && std::getline(in, line)) {
    const perftkit::FenResult parsed = perftkit::parse_fen(line.substr(0, line.rfind(' ')));  // drop the game id
    if (!parsed) continue;
    const std::string fen = perftkit::to_fen(parsed->position);
    EXPECT_EQ(oracle::perft(oracle_board(fen), 2), perftkit::perft(parsed->position, 2)) << fen;
    ++compared;
  }
  EXPECT_EQ(compared, 2000);
}

}  // namespace
