// A test-only oracle for move generation: a 0x88 mailbox board that generates pseudo-legal
// moves and keeps those that do not leave the mover's king attacked. It is written for
// clarity, not speed, and shares no code with perftkit's generator, so that the two can be
// compared on any position (fuzz/fuzz_movegen_diff.cpp, tests/core/test_mailbox_oracle.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oracle {

// 0x88 squares: index = 16 * rank + file; a square is on the board when (index & 0x88) == 0.
constexpr int NO_SQUARE = -1;
constexpr char EMPTY = '.';

inline bool on_board(int square) { return square >= 0 && (square & 0x88) == 0; }
inline int square_at(int file, int rank) { return 16 * rank + file; }
inline int file_of(int square) { return square & 7; }
inline int rank_of(int square) { return square >> 4; }

enum Side { WHITE = 0, BLACK = 1 };
enum Wing { KING_WING = 0, QUEEN_WING = 1 };

struct Board {
  std::array<char, 128> squares{};  // '.' empty; PNBRQK white, pnbrqk black (FEN letters)
  Side to_move = WHITE;
  int en_passant = NO_SQUARE;  // the square a pawn that just moved two passed over
  // The rook that keeps each castling right, by side and wing (Chess960 included).
  int castling_rook[2][2] = {{NO_SQUARE, NO_SQUARE}, {NO_SQUARE, NO_SQUARE}};
};

// Reads the board, side, castling and en-passant fields of a FEN (KQkq, X-FEN and
// Shredder letters); the clocks are ignored. Nothing when a field cannot be read.
std::optional<Board> board_from_fen(std::string_view fen);

// Whether a piece of side `by` attacks `square` on this board.
bool attacked(const Board& board, int square, Side by);

// Where the king of `side` stands (NO_SQUARE if it has none).
int king_square(const Board& board, Side side);

// Every legal move, as the position it leads to, and its UCI text (castling as king takes rook;
// perft works without the text).
struct Child {
  Board board;
  std::string uci;
};
std::vector<Child> legal_children(const Board& board);

// Leaf count of the legal move tree of the given depth (perft 0 = 1).
std::uint64_t perft(const Board& board, int depth);

}  // namespace oracle
