// The PGN reader: tokens, game boundaries in a stream, and replaying games (repetitions,
// the 75-move rule, mate, notation) with errors that name the game and the ply.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "classify/pgn.hpp"
#include "notation/fen.hpp"
#include "notation/pgn_game.hpp"
#include "notation/pgn_lexer.hpp"
#include "notation/pgn_split.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

std::string test_file(const char* name) {
  std::ifstream in(std::string(perftkit::test_paths::test_data_dir()) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> tokens(std::string_view text, bool at_eof = true) {
  PgnLexer lexer(text, at_eof);
  std::vector<std::string> out;
  for (PgnLexeme l = lexer.next(); l.kind != PgnToken::END; l = lexer.next()) {
    out.push_back(std::to_string(int(l.kind)) + ":" + std::string(l.text));
    if (l.kind == PgnToken::INCOMPLETE) break;
  }
  return out;
}

// The games of text, cut as the reader cuts them.
std::vector<std::string_view> games_of(std::string_view text) {
  std::vector<std::string_view> games;
  for (std::size_t at = 0; at < text.size();) {
    const GameExtent e = find_game_end(text.substr(at), true);
    if (e.has_content) games.push_back(text.substr(at, e.end));
    if (e.end == 0) break;
    at += e.end;
  }
  return games;
}

struct Recorded {
  std::vector<std::string> fens;
  std::vector<int> repetitions;
  PgnReplay replay;
};

class Recorder final : public PgnVisitor {
 public:
  explicit Recorder(Recorded& r) : r_(r) {}
  void start(std::uint32_t, bool) override {}
  void position(const Position& pos, int ply, int repetitions) override {
    EXPECT_EQ(ply, int(r_.fens.size()));
    r_.fens.push_back(to_fen(pos));
    r_.repetitions.push_back(repetitions);
  }

 private:
  Recorded& r_;
};

Recorded replay(std::string_view game) {
  Recorded r;
  Recorder recorder(r);
  r.replay = replay_game(game, recorder);
  return r;
}

TEST(PgnLexer, TokenKinds) {
  using T = PgnToken;
  const auto k = [](T kind, const char* text) { return std::to_string(int(kind)) + ":" + text; };
  EXPECT_EQ(tokens("[Event \"a \\\"b\\\"\"] 1. e4 {c} $12 e5!? (1... c5) ; x\n 2. O-O-O+ *"),
            (std::vector<std::string>{k(T::TAG_OPEN, "["),    k(T::SYMBOL, "Event"),  k(T::STRING, "a \\\"b\\\""),
                                      k(T::TAG_CLOSE, "]"),   k(T::SYMBOL, "1"),      k(T::PERIOD, "."),
                                      k(T::SYMBOL, "e4"),     k(T::COMMENT, "{c}"),   k(T::NAG, "$12"),
                                      k(T::SYMBOL, "e5"),     k(T::ANNOTATION, "!?"), k(T::VARIATION_OPEN, "("),
                                      k(T::SYMBOL, "1"),      k(T::PERIOD, "."),      k(T::PERIOD, "."),
                                      k(T::PERIOD, "."),      k(T::SYMBOL, "c5"),     k(T::VARIATION_CLOSE, ")"),
                                      k(T::COMMENT, "; x"),   k(T::SYMBOL, "2"),      k(T::PERIOD, "."),
                                      k(T::SYMBOL, "O-O-O+"), k(T::STAR, "*")}));
  EXPECT_EQ(tokens("%escaped line\n e4"), (std::vector<std::string>{k(T::SYMBOL, "e4")}));
  EXPECT_EQ(tokens("1-0 1/2-1/2 -- ?"), (std::vector<std::string>{k(T::SYMBOL, "1-0"), k(T::SYMBOL, "1/2-1/2"),
                                                                  k(T::NULL_MOVE, "--"), k(T::ANNOTATION, "?")}));
}

TEST(PgnLexer, IncompleteAtTheEndOfABlock) {
  EXPECT_EQ(tokens("e4 {open", true).back(), "1:{open");
  EXPECT_EQ(tokens("e4 Nf", false).back(), "1:Nf");  // may go on in the next block
  EXPECT_EQ(tokens("e4 Nf3", true).back(), "5:Nf3");
  EXPECT_EQ(tokens("[A \"x", true).back(), "1:\"x");
}

TEST(PgnSplit, GameEndsAtResultOrNextTags) {
  const std::string text = "[A \"1\"]\n1. e4 1-0\n[B \"2\"]\n1. d4 {1-0 in a comment} (1. c4 0-1) d5\n[C \"3\"]\n*\n  ";
  const std::vector<std::string_view> games = games_of(text);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0], "[A \"1\"]\n1. e4 1-0");
  EXPECT_EQ(games[1], "\n[B \"2\"]\n1. d4 {1-0 in a comment} (1. c4 0-1) d5\n");  // no result: ends at the tags
  EXPECT_EQ(games[2], "[C \"3\"]\n*");
  // Without EOF, a game whose marker may still be cut off is not complete.
  EXPECT_FALSE(find_game_end("1. e4 1-", false).complete);
  EXPECT_FALSE(find_game_end("1. e4 1-0", false).complete);
  EXPECT_TRUE(find_game_end("1. e4 1-0 ", false).complete);
  EXPECT_FALSE(find_game_end("1. e4 {1-0 ", false).complete);
}

TEST(PgnReplay, ScholarsMateThroughCommentsAndVariations) {
  const std::string text = test_file("classify_games.pgn");
  const std::vector<std::string_view> games = games_of(text);
  ASSERT_EQ(games.size(), 7u);
  const Recorded r = replay(games[0]);
  EXPECT_TRUE(r.replay.error.empty()) << r.replay.error;
  EXPECT_EQ(r.replay.plies, 7);
  ASSERT_EQ(r.fens.size(), 8u);
  EXPECT_EQ(r.fens.back(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
  EXPECT_EQ(classify(r.replay.last).termination, Termination::CHECKMATE);
}

// Move numbers come with their periods in every spacing: "1.", "1 .", "1...", "1. ..",
// none at all, split over lines, an escape line among them: the moves read are the same.
TEST(PgnReplay, MoveNumbersWithPeriodsInAnySpacing) {
  const std::string expected = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
  for (const std::string movetext :
       {"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *", "1.e4 1...e5 2.Nf3 2...Nc6 3.Bb5 3...a6 *",
        "1 . e4 1 . . . e5 2 .Nf3 2. ..Nc6 3\n.\nBb5 3...\n%an escape line\na6 *", "1 e4 e5 2 Nf3 Nc6 3 Bb5 a6 *",
        "1. e4 1... e5 2. Nf3 {x} 2... Nc6 3.. Bb5 (3. Bc4) 3... a6 1-0"}) {
    const Recorded r = replay(movetext);
    EXPECT_TRUE(r.replay.error.empty()) << movetext << ": " << r.replay.error;
    ASSERT_EQ(r.fens.size(), 7u) << movetext;
    EXPECT_EQ(r.fens.back(), expected) << movetext;
  }
  // A result right after a move number's periods still ends the game.
  const Recorded r = replay("1. e4 e5 2. 1-0 Nf3");
  EXPECT_TRUE(r.replay.error.empty()) << r.replay.error;
  EXPECT_EQ(r.fens.size(), 3u);
}

TEST(PgnReplay, RepetitionsCountEachRecurrence) {
  const std::string text = test_file("classify_games.pgn");
  const Recorded r = replay(games_of(text)[1]);
  EXPECT_TRUE(r.replay.error.empty()) << r.replay.error;
  ASSERT_EQ(r.repetitions.size(), 17u);
  // The start position recurs every four plies; Nf3 positions two plies later.
  const std::vector<int> expected = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5};
  EXPECT_EQ(r.repetitions, expected);
  EXPECT_EQ(classify(r.replay.last, r.repetitions.back()).termination, Termination::FIVEFOLD_REPETITION);
  EXPECT_EQ(classify(r.replay.last, 3).termination, Termination::THREEFOLD_REPETITION);
}

TEST(PgnReplay, SeventyFiveMovesFromAFenTag) {
  const std::string text = test_file("classify_games.pgn");
  const Recorded r = replay(games_of(text)[2]);
  EXPECT_TRUE(r.replay.error.empty()) << r.replay.error;
  ASSERT_EQ(r.fens.size(), 5u);
  EXPECT_EQ(r.fens.front(), "8/8/8/4k3/8/8/3K4/R7 w - - 146 80");
  EXPECT_EQ(r.fens.back(), "8/8/8/4k3/8/8/3K4/R7 w - - 150 82");
  EXPECT_EQ(r.repetitions.back(), 2);
  EXPECT_EQ(classify(r.replay.last, 2).termination, Termination::SEVENTYFIVE_MOVES);
}

TEST(PgnReplay, NotationOfCastlingEnPassantAndPromotion) {
  const std::string text = test_file("classify_games.pgn");
  const std::vector<std::string_view> games = games_of(text);
  EXPECT_EQ(replay(games[3]).fens.back(), "2kr4/8/8/8/8/8/3r4/R3RK2 w - - 6 4");
  const Recorded ep = replay(games[4]);
  EXPECT_EQ(ep.fens[2], "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
  EXPECT_EQ(classify(ep.replay.last).termination, Termination::INSUFFICIENT_MATERIAL);
  EXPECT_EQ(replay(games[5]).fens.back(), "6N1/8/4k3/1Q6/8/8/8/q3K3 w - - 0 4");
  const Recorded untagged = replay(games[6]);
  EXPECT_TRUE(untagged.replay.error.empty()) << untagged.replay.error;
  EXPECT_EQ(untagged.replay.plies, 26);
}

TEST(PgnReplay, ErrorsNameThePly) {
  const std::string text = test_file("classify_errors.pgn");
  const std::vector<std::string_view> games = games_of(text);
  ASSERT_EQ(games.size(), 7u);
  const auto error = [&](std::size_t i) {
    const PgnReplay r = replay(games[i]).replay;
    return std::to_string(r.error_ply) + ": " + r.error;
  };
  EXPECT_EQ(error(0), "4: illegal move Nf3");
  EXPECT_EQ(error(1), "5: ambiguous move Nd4+");
  EXPECT_EQ(error(2), "1: ambiguous move Nb3");
  EXPECT_EQ(error(3), "3: invalid move Zz9");
  EXPECT_EQ(error(4), "0: FEN tag: board: white has 0 kings, expected exactly one");
  EXPECT_EQ(error(5), "0: variant 'Crazyhouse' is not supported");
  EXPECT_EQ(error(6), "0: ");
}

// Every spelling of standard chess and of Chess960 that match software and databases write
// (TCEC's archive: "normal"; Cute Chess: "fischerandom"), in any case, replays; another
// variant is named in the error.
TEST(PgnReplay, VariantSpellings) {
  const auto game = [](std::string_view variant, std::string_view fen = {}) {
    std::string text = "[Event \"x\"]\n[Variant \"" + std::string(variant) + "\"]\n";
    if (!fen.empty()) text += "[SetUp \"1\"]\n[FEN \"" + std::string(fen) + "\"]\n";
    return text + "\n1. e4 e5 2. d4 *\n";
  };
  for (const char* standard : {"normal", "Normal", "NORMAL", "Standard", "standard", "Chess", "chess", "Classical",
                               "classical", "From Position", "from position", ""}) {
    const Recorded r = replay(game(standard));
    EXPECT_TRUE(r.replay.error.empty()) << standard << ": " << r.replay.error;
    EXPECT_FALSE(r.replay.chess960) << standard;
    EXPECT_EQ(r.fens.size(), 4u) << standard;
  }
  constexpr const char* FRC_START = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
  for (const char* chess960 : {"Chess960", "chess960", "CHESS960", "Chess 960", "Fischerandom", "fischerandom",
                               "FischerRandom", "Fischer Random", "FRC", "frc"}) {
    const Recorded r = replay(game(chess960, FRC_START));
    EXPECT_TRUE(r.replay.error.empty()) << chess960 << ": " << r.replay.error;
    EXPECT_TRUE(r.replay.chess960) << chess960;
    EXPECT_EQ(r.fens.size(), 4u) << chess960;
  }
  for (const char* other : {"Atomic", "crazyhouse", "normal chess", "960"}) {
    const Recorded r = replay(game(other));
    EXPECT_EQ(r.replay.error, "variant '" + std::string(other) + "' is not supported") << other;
    EXPECT_TRUE(r.fens.empty()) << other;
  }
}

TEST(PgnClassify, AllPositionsOrTheFinalOne) {
  const std::string text = test_file("classify_games.pgn");
  std::vector<GameSpan> spans;
  for (std::size_t at = 0; at < text.size();) {
    const GameExtent e = find_game_end(std::string_view(text).substr(at), true);
    if (e.has_content) spans.push_back({at, at + e.end});
    if (e.end == 0) break;
    at += e.end;
  }
  RowFormatter formatter(RowFormat::CSV, "g.pgn");
  ByteBuffer all_rows, final_rows;
  ClassifySummary all, last;
  EXPECT_EQ(classify_games(text, spans, 1, PgnPositions::ALL, formatter, all_rows, all), 0u);
  EXPECT_EQ(classify_games(text, spans, 1, PgnPositions::FINAL, formatter, final_rows, last), 0u);
  EXPECT_EQ(all.games, 7u);
  EXPECT_EQ(all.rows, 8u + 17 + 5 + 7 + 7 + 7 + 27);
  EXPECT_EQ(last.rows, 7u);
  EXPECT_EQ(last.checkmate, 1u);
  EXPECT_EQ(last.termination[std::size_t(Termination::FIVEFOLD_REPETITION)], 1u);
  EXPECT_EQ(last.termination[std::size_t(Termination::SEVENTYFIVE_MOVES)], 1u);
  EXPECT_EQ(last.termination[std::size_t(Termination::INSUFFICIENT_MATERIAL)], 1u);
  EXPECT_EQ(all.threefold, 9u);  // plies 8 to 16 of the knight dance
  EXPECT_EQ(all.fivefold, 1u);
  const std::vector<std::string> rows = lines_of(final_rows.view());
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[0].substr(0, rows[0].find(',')), "g.pgn:game 1:ply 7");
  EXPECT_NE(rows[0].find(",1,checkmate,white,"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find(",5,fivefold_repetition,draw,"), std::string::npos) << rows[1];
}

// In FINAL mode a broken game keeps its last legal position, then its error row.
TEST(PgnClassify, AnErrorEndsItsGameAfterItsLastLegalPosition) {
  const std::string text = test_file("classify_errors.pgn");
  std::vector<GameSpan> spans;
  for (std::size_t at = 0; at < text.size();) {
    const GameExtent e = find_game_end(std::string_view(text).substr(at), true);
    if (e.has_content) spans.push_back({at, at + e.end});
    if (e.end == 0) break;
    at += e.end;
  }
  RowFormatter formatter(RowFormat::CSV, "e.pgn");
  ByteBuffer out;
  ClassifySummary s;
  EXPECT_EQ(classify_games(text, spans, 11, PgnPositions::FINAL, formatter, out, s), 6u);
  EXPECT_EQ(s.game_errors, 6u);
  const std::vector<std::string> rows = lines_of(out.view());
  ASSERT_EQ(rows.size(), 11u);  // 4 games broken after a position: a valid row and an error row each
  // After 1.e4 e5 2.Nf3 Black has 14 pawn moves, 5 knight moves, 5 bishop moves, 4 queen
  // moves and Ke7: 29.
  EXPECT_EQ(rows[0].substr(0, rows[0].find(",29,") + 4),
            "e.pgn:game 11:ply 3,rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2,,1,,29,");
  EXPECT_EQ(rows[1],
            "e.pgn:game 11:ply 4,rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2,,0,"
            "\"game 11, ply 4: illegal move Nf3\",,,,,,,,,,,,,,");
  EXPECT_EQ(rows[8],
            "e.pgn:game 15:ply 0,,,0,\"game 15: FEN tag: board: white has 0 kings, expected exactly one\","
            ",,,,,,,,,,,,,");
  EXPECT_EQ(rows[10].substr(0, 25), "e.pgn:game 17:ply 2,rnbqk");
}

}  // namespace
}  // namespace perftkit
