// classify(): the rules of one position (mate, stalemate, material, clocks, repetitions) and
// the order in which they decide the outcome; the FEN/EPD line reader and the row formats.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "classify/format.hpp"
#include "classify/lines.hpp"
#include "classify/position_line.hpp"
#include "notation/fen.hpp"
#include "perftkit/classify.hpp"
#include "support/test_paths.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

Classification classify_fen(const std::string& fen, int repetitions = 0) {
  const FenResult parsed = parse_fen(fen);
  EXPECT_TRUE(parsed) << fen << ": " << parsed.error;
  return parsed ? classify(parsed->position, repetitions) : Classification{};
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using testing_support::lines_of;

// Classifies text as one block of lines: the formatted rows (header first) and the summary.
struct Classified {
  std::vector<std::string> rows;
  ClassifySummary summary;
  std::uint64_t rejected = 0;
};

Classified classify_text(const std::string& text, RowFormat format = RowFormat::CSV, std::string_view name = "in") {
  Classified c;
  RowFormatter formatter(format, name);
  ByteBuffer out;
  formatter.header(out);
  c.rejected = classify_lines(text, 1, formatter, out, c.summary);
  c.rows = lines_of(std::string(out.view()));
  return c;
}

TEST(ClassifyCore, StartPosition) {
  const Classification c = classify_fen(std::string(START_FEN));
  EXPECT_EQ(c.legal_moves, 20);
  EXPECT_FALSE(c.in_check);
  EXPECT_EQ(c.checkers, 0);
  EXPECT_FALSE(c.checkmate || c.stalemate || c.insufficient_white || c.insufficient_black);
  EXPECT_EQ(c.termination, Termination::NONE);
  EXPECT_EQ(c.winner, Winner::NONE);
  EXPECT_FALSE(c.game_over());
}

TEST(ClassifyCore, FoolsMateIsWonByBlack) {
  const Classification c = classify_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_EQ(c.legal_moves, 0);
  EXPECT_TRUE(c.in_check && c.checkmate);
  EXPECT_EQ(c.checkers, 1);
  EXPECT_EQ(c.termination, Termination::CHECKMATE);
  EXPECT_EQ(c.winner, Winner::BLACK_WINS);
  EXPECT_TRUE(c.game_over());
}

TEST(ClassifyCore, DoubleCheckCountsTwoCheckers) {
  const Classification c = classify_fen("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1");
  EXPECT_EQ(c.checkers, 2);
  EXPECT_TRUE(c.in_check);
}

TEST(ClassifyCore, Stalemate) {
  const Classification c = classify_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(c.stalemate);
  EXPECT_FALSE(c.checkmate);
  EXPECT_EQ(c.termination, Termination::STALEMATE);
  EXPECT_EQ(c.winner, Winner::NONE);
}

// Rule: per side, on material alone (python-chess's has_insufficient_material).
TEST(ClassifyCore, InsufficientMaterialPerSide) {
  struct Case {
    const char* fen;
    bool white, black;
    DeadMaterial dead;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true, DeadMaterial::KING_VS_KING},
      {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true, true, DeadMaterial::KING_VS_KING_KNIGHT},
      {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true, true, DeadMaterial::KING_VS_KING_BISHOP},
      {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true, DeadMaterial::KING_BISHOP_VS_KING_BISHOP},
      {"4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false, true, DeadMaterial::NONE},   // two knights can mate
      {"4k3/8/8/8/8/8/8/4KN1q w - - 0 1", true, false, DeadMaterial::NONE},   // K+N v K+Q: only queens
      {"4k3/8/8/8/8/8/7r/4KN2 w - - 0 1", false, false, DeadMaterial::NONE},  // K+N v K+R
      {"4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false, false, DeadMaterial::NONE},  // opposite bishops
      {"4k3/8/8/8/8/8/p7/4KB2 w - - 0 1", false, false, DeadMaterial::NONE},  // a pawn anywhere
  };
  for (const Case& k : cases) {
    const Classification c = classify_fen(k.fen);
    EXPECT_EQ(c.insufficient_white, k.white) << k.fen;
    EXPECT_EQ(c.insufficient_black, k.black) << k.fen;
    EXPECT_EQ(c.dead, k.dead) << k.fen;
    EXPECT_EQ(c.termination == Termination::INSUFFICIENT_MATERIAL, k.dead != DeadMaterial::NONE) << k.fen;
  }
}

// The outcome order of python-chess's outcome(): mate, insufficient material, stalemate,
// seventy-five moves, fivefold; then the claims: fifty moves, threefold.
TEST(ClassifyCore, OutcomeOrder) {
  // A mate on the 150th half-move is a mate, and neither clock rule is met.
  const Classification mate = classify_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 150 80");
  EXPECT_EQ(mate.termination, Termination::CHECKMATE);
  EXPECT_FALSE(mate.fifty_move || mate.seventyfive_move);
  // Dead material comes before stalemate.
  const Classification knight_stalemate = classify_fen("k7/2K5/8/1N6/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(knight_stalemate.stalemate);
  EXPECT_EQ(knight_stalemate.termination, Termination::INSUFFICIENT_MATERIAL);
  // Stalemate with a clock of 150 is a stalemate, though the clock rules are met.
  const Classification stale = classify_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 150 80");
  EXPECT_EQ(stale.termination, Termination::STALEMATE);
  EXPECT_TRUE(stale.seventyfive_move && stale.fifty_move);

  const std::string rook = "8/8/8/4k3/8/8/3K4/R7 w - - ";
  EXPECT_EQ(classify_fen(rook + "99 60").termination, Termination::NONE);
  EXPECT_EQ(classify_fen(rook + "100 60").termination, Termination::FIFTY_MOVES);
  EXPECT_EQ(classify_fen(rook + "149 60").termination, Termination::FIFTY_MOVES);
  EXPECT_EQ(classify_fen(rook + "150 60").termination, Termination::SEVENTYFIVE_MOVES);
  EXPECT_EQ(classify_fen(rook + "150 60", 5).termination, Termination::SEVENTYFIVE_MOVES);
  EXPECT_EQ(classify_fen(rook + "0 60", 5).termination, Termination::FIVEFOLD_REPETITION);
  EXPECT_EQ(classify_fen(rook + "100 60", 5).termination, Termination::FIVEFOLD_REPETITION);
  EXPECT_EQ(classify_fen(rook + "100 60", 3).termination, Termination::FIFTY_MOVES);
  EXPECT_EQ(classify_fen(rook + "0 60", 3).termination, Termination::THREEFOLD_REPETITION);
  EXPECT_EQ(classify_fen(rook + "0 60", 2).termination, Termination::NONE);
  EXPECT_TRUE(classify_fen(rook + "150 60").game_over());
  EXPECT_FALSE(classify_fen(rook + "100 60").game_over());  // a claim, not the end
  EXPECT_EQ(classify_fen(rook + "100 60").winner, Winner::NONE);
}

TEST(ClassifyCore, FunctorFillsABatch) {
  std::vector<Position> positions;
  for (const char* fen : {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", START_FEN.data()})
    positions.push_back(parse_fen(fen)->position);
  const std::uint8_t repetitions[] = {0, 3};
  std::vector<Classification> out(positions.size());
  const ClassifyFunctor f{positions.data(), repetitions, out.data()};
  for (std::uint64_t i = 0; i < positions.size(); ++i) f(i);
  EXPECT_EQ(out[0].termination, Termination::CHECKMATE);
  EXPECT_EQ(out[1].termination, Termination::THREEFOLD_REPETITION);
  EXPECT_EQ(out[1].legal_moves, 20);
}

TEST(ClassifyLine, SplitsPositionAndId) {
  const PositionLine fen6 = split_position_line("8/8/8/4k3/8/8/8/4K3 w - - 3 40 abcDEF12\r");
  EXPECT_FALSE(fen6.epd);
  EXPECT_EQ(fen6.field_count, 6u);
  EXPECT_EQ(fen6.position, "8/8/8/4k3/8/8/8/4K3 w - - 3 40");
  EXPECT_EQ(fen6.id, "abcDEF12");

  const PositionLine fen4 = split_position_line("  8/8/8/4k3/8/8/8/4K3 w - -   some id  ");
  EXPECT_EQ(fen4.field_count, 4u);
  EXPECT_EQ(fen4.position, "8/8/8/4k3/8/8/8/4K3 w - -");
  EXPECT_EQ(fen4.id, "some id");

  const PositionLine epd = split_position_line("8/8/8/4k3/8/8/8/4K3 w - - bm Kd2; id \"one; two\";");
  EXPECT_TRUE(epd.epd);
  EXPECT_EQ(epd.id, "one; two");
  EXPECT_EQ(split_position_line("8/8/8/4k3/8/8/8/4K3 w - - hmvc 3;").id, "hmvc 3;");

  const PositionLine bad_clock = split_position_line("8/8/8/4k3/8/8/8/4K3 w - - -1 2 x");
  EXPECT_EQ(bad_clock.position, "8/8/8/4k3/8/8/8/4K3 w - - -1 2");  // the parser reports the clock
  const PositionLine id_with_digits = split_position_line("8/8/8/4k3/8/8/8/4K3 w - - 1a2b3c4d");
  EXPECT_EQ(id_with_digits.position, "8/8/8/4k3/8/8/8/4K3 w - -");
  EXPECT_EQ(id_with_digits.id, "1a2b3c4d");

  // An id stuck to the clocks by a separator: the six fields first, then the id (#63).
  for (const char* line :
       {"K7/8/8/8/8/8/8/7k w - - 5 20,id1", "K7/8/8/8/8/8/8/7k w - - 5 20;id1", "K7/8/8/8/8/8/8/7k w - - 5 20|id1",
        "K7/8/8/8/8/8/8/7k w - - 5 20, id1", "K7/8/8/8/8/8/8/7k w - - 5 20 ; id1"}) {
    const PositionLine stuck = split_position_line(line);
    EXPECT_FALSE(stuck.epd) << line;
    EXPECT_EQ(stuck.field_count, 6u) << line;
    EXPECT_EQ(stuck.position, "K7/8/8/8/8/8/8/7k w - - 5 20") << line;
    EXPECT_EQ(stuck.id, "id1") << line;
  }
  const PositionLine comment = split_position_line("K7/8/8/8/8/8/8/7k w - - 5 20; comment");
  EXPECT_EQ(comment.position, "K7/8/8/8/8/8/8/7k w - - 5 20");
  EXPECT_EQ(comment.id, "comment");
  const PositionLine one_clock = split_position_line("K7/8/8/8/8/8/8/7k w - - 5,id1");
  EXPECT_EQ(one_clock.position, "K7/8/8/8/8/8/8/7k w - - 5");
  EXPECT_EQ(one_clock.id, "id1");

  EXPECT_TRUE(split_position_line("").blank);
  EXPECT_TRUE(split_position_line(" \t\r").blank);
  EXPECT_TRUE(split_position_line("# a comment").blank);
  EXPECT_FALSE(split_position_line("startpos id7").blank);
  EXPECT_EQ(split_position_line("startpos id7").id, "id7");
}

TEST(ClassifyLines, HandWrittenFile) {
  const Classified c =
      classify_text(read_file(std::string(perftkit::test_paths::test_data_dir()) + "/classify_lines.txt"));
  ASSERT_EQ(c.rows.size(), 1 + 10u);  // header + one row per position line
  EXPECT_EQ(c.rejected, 1u);
  EXPECT_EQ(c.summary.rows, 10u);
  EXPECT_EQ(c.summary.checkmate, 1u);
  EXPECT_EQ(c.summary.stalemate, 1u);
  EXPECT_EQ(c.summary.dead_by_material, 3u);  // K v K, K+N v K, K+B v K
  EXPECT_EQ(c.summary.fifty_move, 2u);
  EXPECT_EQ(c.summary.seventyfive_move, 1u);
  EXPECT_EQ(c.summary.warnings[3], 1u);  // impossible-check
  EXPECT_EQ(c.rows[1],
            "in:2,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,start,1,,20,0,0,0,0,0,0,0,0,0,,,,");
  EXPECT_EQ(c.rows[2],
            "in:4,rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 "
            "3,fools-mate,1,,0,1,1,1,0,0,0,0,0,0,,checkmate,black,");
  EXPECT_EQ(c.rows[5].substr(0, 5), "in:7,");
  EXPECT_NE(c.rows[5].find(",0,\"board: expected 8 ranks"), std::string::npos) << c.rows[5];
  EXPECT_EQ(c.rows[9], "in:11,r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 12,\"castles, both\",1,,26,0,0,0,0,0,0,0,0,0,,,,");
  EXPECT_EQ(c.rows[10].substr(c.rows[10].size() - 17), ",impossible-check");
}

// A malformed line among good ones gives exactly one rejected row, with its line number and
// reason, and every other row is what it would have been without it.
TEST(ClassifyLines, MalformedLineGivesOneErrorRow) {
  const std::string good =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 a\n"
      "8/8/8/4k3/8/8/8/4K3 w - - 0 1 b\n"
      "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 c\n";
  const std::string bad_line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1 broken\n";
  const std::size_t second = good.find('\n') + 1;
  const Classified clean = classify_text(good);
  const Classified mixed = classify_text(good.substr(0, second) + bad_line + good.substr(second));
  ASSERT_EQ(mixed.rows.size(), clean.rows.size() + 1);
  EXPECT_EQ(mixed.rejected, 1u);
  EXPECT_EQ(mixed.summary.invalid, 1u);
  EXPECT_EQ(mixed.summary.valid, clean.summary.valid);
  EXPECT_EQ(mixed.rows[2],
            "in:2,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1,broken,0,board: unknown piece letter 'Z' in "
            "rank 1,,,,,,,,,,,,,,");
  // The other rows are unchanged but for the line numbers after the bad one.
  EXPECT_EQ(mixed.rows[1], clean.rows[1]);
  for (std::size_t i = 2; i < clean.rows.size(); ++i) {
    const std::string& a = clean.rows[i];
    const std::string& b = mixed.rows[i + 1];
    EXPECT_EQ(a.substr(a.find(',')), b.substr(b.find(',')));
  }
}

TEST(ClassifyLines, RealWorldLineEndings) {
  // CR-LF, NUL before the newline (as in some suite files), no newline at the end.
  const std::string text = std::string("8/8/8/4k3/8/8/8/4K3 w - - 0 1\r\n") + "8/8/8/4k3/8/8/8/4K3 b - - 0 1" +
                           std::string(1, '\0') + "\n8/8/8/4k3/8/8/8/4K3 w - - 5 9 last";
  const Classified c = classify_text(text);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rejected, 0u);
  EXPECT_EQ(c.rows[3].substr(0, 5), "in:3,");
  EXPECT_NE(c.rows[3].find("w - - 5 9,last,1,"), std::string::npos) << c.rows[3];
}

// The FEN column is one space between fields, with the clocks as read back.
TEST(ClassifyLines, FenColumnIsNormalised) {
  const Classified c = classify_text(
      "8/8/8/4k3/8/8/8/4K3\tw - - 0 1 tab\n8/8/8/4k3/8/8/8/4K3 w  - - 00 0 spaces\n8/8/8/4k3/8/8/8/4K3 b - - x\n",
      RowFormat::TSV);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[1].substr(0, c.rows[1].find("\t1\t")), "in:1\t8/8/8/4k3/8/8/8/4K3 w - - 0 1\ttab");
  EXPECT_EQ(c.rows[2].substr(0, c.rows[2].find("\t1\t")), "in:2\t8/8/8/4k3/8/8/8/4K3 w - - 0 1\tspaces");
  EXPECT_EQ(c.rows[3].substr(0, c.rows[3].find("\t1\t")), "in:3\t8/8/8/4k3/8/8/8/4K3 b - - 0 1\tx");
}

TEST(ClassifyFormat, CsvQuotesOnlyWhatNeedsIt) {
  RowFormatter formatter(RowFormat::CSV, "a,\"b\".txt");
  ByteBuffer out;
  ClassifyRow row;
  row.line = 7;
  row.fen = "bad \"fen\", really";
  row.id = "plain";
  row.error = "line\nbreak";
  formatter.row(out, row);
  EXPECT_EQ(out.view(), "\"a,\"\"b\"\".txt:7\",\"bad \"\"fen\"\", really\",plain,0,\"line\nbreak\",,,,,,,,,,,,,,\n");
}

// Texts of every length up to 40 bytes reach the row whole: the copies in fixed-size pieces
// (8, 4, then single bytes at both ends) leave no byte out and add none.
TEST(ClassifyFormat, TextsOfEveryLengthAreCopiedWhole) {
  const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP";
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string name = letters.substr(0, n), id = letters.substr(n % 7, n);
    RowFormatter formatter(RowFormat::CSV, name);
    ByteBuffer out;
    ClassifyRow row;
    row.line = 12345;
    row.fen = "x";
    row.id = id;
    formatter.row(out, row);
    EXPECT_EQ(out.view(), name + ":12345,x," + id + ",0,,,,,,,,,,,,,,,\n") << n;
  }
}

TEST(ClassifyFormat, TsvReplacesTabsAndBreaks) {
  RowFormatter formatter(RowFormat::TSV, "x");
  ByteBuffer out;
  ClassifyRow row;
  row.line = 1;
  row.fen = "a\tb";
  row.error = "c\r\nd";
  formatter.row(out, row);
  EXPECT_EQ(out.view(), "x:1\ta b\t\t0\tc  d\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n");
}

TEST(ClassifyFormat, JsonLinesAreValidJsonWhateverTheBytes) {
  RowFormatter formatter(RowFormat::JSONL, "f\"1");
  ByteBuffer out;
  ClassifyRow row;
  row.from_pgn = true;
  row.game = 3;
  row.ply = 17;
  row.fen = std::string_view("q\\\x01\xff\xc3\xa9", 6);  // a backslash, a control byte, a stray byte, then é
  row.error = "game 3, ply 17: illegal move Nf3";
  formatter.row(out, row);
  EXPECT_EQ(out.view(),
            "{\"source\":\"f\\\"1:game 3:ply 17\",\"fen\":\"q\\\\\\u0001\\ufffd\xc3\xa9\",\"id\":null,\"valid\":false,"
            "\"error\":\"game 3, ply 17: illegal move Nf3\",\"legal_moves\":null,\"in_check\":null,\"checkers\":null,"
            "\"checkmate\":null,\"stalemate\":null,\"insufficient_white\":null,\"insufficient_black\":null,"
            "\"dead_by_material\":null,\"fifty_move\":null,\"seventyfive_move\":null,\"repetitions\":null,"
            "\"outcome\":null,\"winner\":null,\"flags\":[]}\n");
}

TEST(ClassifyFormat, JsonRowOfAValidPosition) {
  const Classified c = classify_text("4r1k1/8/8/8/8/8/8/r3K3 w - - 0 1 x\n", RowFormat::JSONL);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(
      c.rows[0],
      "{\"source\":\"in:1\",\"fen\":\"4r1k1/8/8/8/8/8/8/r3K3 w - - 0 1\",\"id\":\"x\",\"valid\":true,\"error\":null,"
      "\"legal_moves\":2,\"in_check\":true,\"checkers\":2,\"checkmate\":false,\"stalemate\":false,"
      "\"insufficient_white\":true,\"insufficient_black\":false,\"dead_by_material\":false,\"fifty_move\":false,"
      "\"seventyfive_move\":false,\"repetitions\":null,\"outcome\":null,\"winner\":null,"
      "\"flags\":[\"impossible-check\"]}");
}

TEST(ClassifyFormat, HeaderNamesEveryColumn) {
  ByteBuffer out;
  RowFormatter(RowFormat::CSV, "x").header(out);
  EXPECT_EQ(out.view(),
            "source,fen,id,valid,error,legal_moves,in_check,checkers,checkmate,stalemate,insufficient_white,"
            "insufficient_black,dead_by_material,fifty_move,seventyfive_move,repetitions,outcome,winner,flags\n");
  ByteBuffer none;
  RowFormatter(RowFormat::JSONL, "x").header(none);
  EXPECT_EQ(none.size(), 0u);
}

}  // namespace
}  // namespace perftkit
