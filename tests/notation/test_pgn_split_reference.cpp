// find_game_end steps over tokens in place; here it is compared with the rule written out
// over PgnLexer's tokens (PGN 8.2.6: a game ends after its termination marker outside any
// variation, or before a tag that follows its movetext), on every prefix of hand-picked
// texts and on seeded random texts of PGN's bytes, with and without the end of the input.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "notation/pgn_lexer.hpp"
#include "notation/pgn_split.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

GameExtent reference_game_end(std::string_view text, bool at_eof) {
  PgnLexer lexer(text, at_eof);
  bool in_tag = false, in_movetext = false, has_content = false;
  int depth = 0;
  for (;;) {
    const PgnLexeme lexeme = lexer.next();
    switch (lexeme.kind) {
      case PgnToken::END:
      case PgnToken::INCOMPLETE: return {text.size(), at_eof, has_content};
      case PgnToken::TAG_OPEN:
        if (in_movetext && depth == 0) return {lexeme.offset, true, true};
        in_tag = has_content = true;
        break;
      case PgnToken::TAG_CLOSE: in_tag = false; break;
      case PgnToken::COMMENT: break;
      case PgnToken::VARIATION_OPEN:
        ++depth;
        in_movetext = has_content = true;
        break;
      case PgnToken::VARIATION_CLOSE:
        if (depth > 0) --depth;
        break;
      default:
        if (in_tag) break;
        if (depth == 0 && is_result_token(lexeme)) return {lexer.offset(), true, true};
        in_movetext = has_content = true;
        break;
    }
  }
}

std::string data_file(const char* name) {
  std::ifstream in(std::string(test_paths::test_data_dir()) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void expect_same_cuts(std::string_view text) {
  for (std::size_t from = 0; from < text.size(); ++from)
    for (const bool at_eof : {false, true}) {
      const std::string_view rest = text.substr(from);
      const GameExtent want = reference_game_end(rest, at_eof), got = find_game_end(rest, at_eof);
      ASSERT_EQ(got.end, want.end) << "at_eof " << at_eof << " in: " << rest;
      ASSERT_EQ(got.complete, want.complete) << "at_eof " << at_eof << " in: " << rest;
      ASSERT_EQ(got.has_content, want.has_content) << "at_eof " << at_eof << " in: " << rest;
    }
}

TEST(PgnSplitReference, EveryPrefixOfHandPickedTexts) {
  for (const std::string text :
       {"[A \"1\"]\n1. e4 1-0\n[B \"2\"]\n1. d4 {1-0 in a comment} (1. c4 0-1) d5\n[C \"3\"]\n*\n  ",
        "%escape line [X\n[A \"a \\\" b\"] ; rest [ of line\n1. e4 $1 !? e5 -- 1/2-1/2 1/2-1/",
        "1. e4 (1. d4 (1. c4) 0-1) ) ) 1-0x 0-1", "\"string\" 1-0 [T] -", "-", "--", "$", "$12", "!?", "{", "{}", ";",
        ";x\n", "\"a\\", "1-", "1/2-1/2", "1. O-O-O+ Qxe8# e8=Q 1-00 01 1-0/ [", "\x01\xff 1-0", "  \n%\n%x\n * "})
    expect_same_cuts(text);
  for (const char* file : {"classify_games.pgn", "classify_columns.pgn", "classify_errors.pgn"}) {
    const std::string text = data_file(file);
    ASSERT_FALSE(text.empty()) << file;
    for (std::size_t at = 0; at < text.size();) {  // each game, then every suffix of a few of its bytes
      const GameExtent e = reference_game_end(std::string_view(text).substr(at), true);
      ASSERT_EQ(find_game_end(std::string_view(text).substr(at), true).end, e.end);
      ASSERT_EQ(find_game_end(std::string_view(text).substr(at), false).end,
                reference_game_end(std::string_view(text).substr(at), false).end);
      at += e.end > 0 ? e.end : 1;
    }
    expect_same_cuts(text.substr(0, 600));
  }
}

TEST(PgnSplitReference, RandomTextsOfPgnBytes) {
  // Bytes that matter to the tokens, weighted towards the structural ones.
  const std::string alphabet = "[]{}()\"\\;%$!?*.-/01-0 \n\t\r e4Nf3xO=Q+#_:aZ9\x01\xff";
  std::mt19937 random(20261203);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const std::size_t length = random() % 40;
    for (std::size_t i = 0; i < length; ++i) {
      const auto pick = random() % 10;
      if (pick == 0) text += "1-0";
      else if (pick == 1) text += "1/2-1/2";
      else text += alphabet[random() % alphabet.size()];
    }
    expect_same_cuts(text);
    if (HasFatalFailure()) return;
  }
}

// Texts built of the pieces of real games, long enough for the sixteen-byte steps: tag lines
// whole and broken (the splitter steps over a whole `[Name "value"]` at once) and movetext
// with a brace comment after every move (stepped over within a quiet run), among the tokens
// that end a game or open a variation, comment or escape line.
TEST(PgnSplitReference, RandomTextsOfGamePieces) {
  const std::vector<std::string> pieces = {"[Event \"Rated Blitz game\"]\n",
                                           "[White \"a \\\" b\"]\n",
                                           "[Elo  \"1500\" ]\n",
                                           "[Site \"x\"\n",
                                           "[Name\n\"v\"]\n",
                                           "[ \"v\"]\n",
                                           "[X \"open\n",
                                           "[",
                                           "]",
                                           "\n\n",
                                           "12. ",
                                           "12... ",
                                           "Nf3 ",
                                           "exd5+ ",
                                           "{ [%eval 0.17] [%clk 0:03:00] } ",
                                           "{ a [remark] ( here } ",
                                           "{ open ",
                                           "}",
                                           "1-0",
                                           " 0-1\n",
                                           "1/2-1/2",
                                           "*",
                                           "( 3. c4 ) ",
                                           ")",
                                           "; to the end of the line\n",
                                           "\n%escape [ line\n",
                                           "$1 ",
                                           "!? ",
                                           "-- ",
                                           "\"str\" "};
  std::mt19937 random(20261204);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const std::size_t count = 4 + random() % 30;
    for (std::size_t i = 0; i < count; ++i) text += pieces[random() % pieces.size()];
    expect_same_cuts(text);
    if (HasFatalFailure()) return;
  }
}

// Every byte value in every place of a long run of quiet movetext, from many starts: the
// splitter steps over such runs by a table of its own (QUIET), which must never step over a
// byte that the tokens make something of.
TEST(PgnSplitReference, EveryByteInEveryPlaceOfAQuietRun) {
  const std::string quiet = "12. Nf3 e5 13. O-O+ Qxe8# $1 !? e8=Q a_b:c 14... Kh1 ";
  for (int byte = 0; byte < 256; ++byte)
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text = quiet;
      text[at] = char(byte);
      text += "1-0 [Next \"game\"]";
      for (std::size_t from = 0; from < 17; ++from)
        for (const bool at_eof : {false, true}) {
          const std::string_view rest = std::string_view(text).substr(from);
          const GameExtent want = reference_game_end(rest, at_eof), got = find_game_end(rest, at_eof);
          ASSERT_EQ(got.end, want.end) << "byte " << byte << " at " << at << " from " << from;
          ASSERT_EQ(got.complete, want.complete) << "byte " << byte << " at " << at << " from " << from;
        }
    }
}

}  // namespace
}  // namespace perftkit
