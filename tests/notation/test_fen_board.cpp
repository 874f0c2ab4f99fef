// The FEN board field's two writers (rank by rank, and the whole board at once where the CPU
// has AVX-512 VBMI2) against a square-by-square reference written here: every occupancy of
// every rank, and boards of every density with every kind of piece.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <string>

#include "notation/fen_board.hpp"

namespace perftkit {
namespace {

using BoardWriter = std::function<char*(const Position&, char*)>;

// A board of pieces given as letters by square (a1 first; ' ' for empty).
Position board_of(const std::array<char, 64>& letters) {
  Position pos{};
  for (int sq = 0; sq < 64; ++sq) {
    const char letter = letters[sq];
    if (letter == ' ') continue;
    const Bitboard bit = Bitboard(1) << sq;
    pos.by_color[letter >= 'a' ? BLACK : WHITE] |= bit;
    switch (letter | 0x20) {
      case 'p': pos.pawns |= bit; break;
      case 'n': pos.knights |= bit; break;
      case 'b': pos.diagonal |= bit; break;
      case 'r': pos.orthogonal |= bit; break;
      case 'q': pos.diagonal |= bit, pos.orthogonal |= bit; break;
      case 'k': pos.kings |= bit; break;
    }
  }
  return pos;
}

// The FEN rule itself, square by square: ranks 8 to 1, a run of empty squares as its count.
std::string reference_board(const std::array<char, 64>& letters) {
  std::string text;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char letter = letters[8 * rank + file];
      if (letter == ' ') {
        ++empty;
        continue;
      }
      if (empty) text += char('0' + empty);
      empty = 0;
      text += letter;
    }
    if (empty) text += char('0' + empty);
    if (rank) text += '/';
  }
  return text;
}

// What writer writes for letters, checking it stays within FEN_BOARD_ROOM.
std::string written(const BoardWriter& writer, const std::array<char, 64>& letters) {
  std::array<char, FEN_BOARD_ROOM + 16> room;
  room.fill('#');
  const char* const end = writer(board_of(letters), room.data());
  EXPECT_TRUE(std::all_of(room.begin() + FEN_BOARD_ROOM, room.end(), [](char c) { return c == '#'; }));
  return std::string(static_cast<const char*>(room.data()), end);
}

// Every occupancy of each rank (the other ranks full, then empty), then random boards whose
// share of occupied squares runs from none to all, with pieces of every kind and colour.
void expect_writes_every_board(const BoardWriter& writer) {
  constexpr std::string_view PIECES = "PNBRQKpnbrqk";
  std::mt19937 random(20261204);
  int boards = 0;
  const auto check = [&](const std::array<char, 64>& letters) {
    ASSERT_EQ(written(writer, letters), reference_board(letters)) << "board " << boards;
    ++boards;
  };
  for (const char others : {'Q', ' '})
    for (int rank = 0; rank < 8; ++rank)
      for (int occupancy = 0; occupancy < 256; ++occupancy) {
        std::array<char, 64> letters;
        letters.fill(others);
        for (int file = 0; file < 8; ++file)
          letters[8 * rank + file] = occupancy >> file & 1 ? PIECES[(rank + file) % PIECES.size()] : ' ';
        check(letters);
      }
  for (int density = 0; density <= 64; ++density)
    for (int sample = 0; sample < 40; ++sample) {
      std::array<char, 64> letters;
      for (char& letter : letters) letter = int(random() % 64) < density ? PIECES[random() % PIECES.size()] : ' ';
      check(letters);
    }
  EXPECT_EQ(boards, 2 * 8 * 256 + 65 * 40);
}

TEST(FenBoard, RankByRankWritesEveryBoard) { expect_writes_every_board(detail::write_fen_board_by_ranks); }

TEST(FenBoard, TheChosenWriterWritesEveryBoard) { expect_writes_every_board(write_fen_board); }

TEST(FenBoard, WholeBoardWriterWritesEveryBoard) {
#if PERFTKIT_WHOLE_FEN_BOARD
  if (!detail::cpu_writes_whole_fen_board()) GTEST_SKIP() << "this CPU lacks AVX-512 VBMI2";
  expect_writes_every_board(isa_avx512_vbmi2::write_fen_board);
#else
  GTEST_SKIP() << "no whole-board writer in this build";
#endif
}

// perftkit info names the writer this CPU gets: the whole-board one exactly when it can run.
TEST(FenBoard, TheWritersNameSaysWhichOneRuns) {
  const std::string_view name = fen_board_writer_name();
#if PERFTKIT_WHOLE_FEN_BOARD
  EXPECT_EQ(name == "whole board (AVX-512 VBMI2)", detail::cpu_writes_whole_fen_board()) << name;
#else
  EXPECT_NE(name, "whole board (AVX-512 VBMI2)");
#endif
}

}  // namespace
}  // namespace perftkit
