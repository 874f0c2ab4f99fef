// The oracle's board: FEN reading and the attack test (tests/oracle/mailbox_board.hpp).
#include "oracle/mailbox_board.hpp"

#include <cctype>

#include "oracle/mailbox_steps.hpp"

namespace oracle {

namespace {

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

// The first field: ranks 8 to 1, files a to h, digits for runs of empty squares.
bool read_placement(std::string_view field, Board& board) {
  board.squares.fill(EMPTY);
  int rank = 7, file = 0;
  for (const char c : field) {
    if (c == '/') {
      if (file != 8 || rank == 0) return false;
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return false;
    } else if (std::string_view("PNBRQKpnbrqk").find(c) != std::string_view::npos) {
      if (file > 7) return false;
      board.squares[square_at(file, rank)] = c;
      ++file;
    } else {
      return false;
    }
  }
  return rank == 0 && file == 8;
}

// A castling letter names a rook on the side's back rank: K/Q the outermost one on that
// wing of the king, A-H the one on that file.
bool read_castling_letter(char letter, Board& board) {
  const Side side = std::isupper(static_cast<unsigned char>(letter)) ? WHITE : BLACK;
  const char upper = char(std::toupper(static_cast<unsigned char>(letter)));
  const int back_rank = side == WHITE ? 0 : 7;
  const int king = king_square(board, side);
  if (king == NO_SQUARE || rank_of(king) != back_rank) return false;
  const char rook = piece_of(side, 'R');
  int rook_square = NO_SQUARE;
  if (upper == 'K') {
    for (int file = 7; file > file_of(king) && rook_square == NO_SQUARE; --file)
      if (board.squares[square_at(file, back_rank)] == rook) rook_square = square_at(file, back_rank);
  } else if (upper == 'Q') {
    for (int file = 0; file < file_of(king) && rook_square == NO_SQUARE; ++file)
      if (board.squares[square_at(file, back_rank)] == rook) rook_square = square_at(file, back_rank);
  } else if (upper >= 'A' && upper <= 'H') {
    rook_square = square_at(upper - 'A', back_rank);
    if (board.squares[rook_square] != rook) return false;
  } else {
    return false;
  }
  if (rook_square == NO_SQUARE || rook_square == king) return false;
  const Wing wing = file_of(rook_square) > file_of(king) ? KING_WING : QUEEN_WING;
  board.castling_rook[side][wing] = rook_square;
  return true;
}

// Whether the first piece met from `square` along `step` is one of `attackers`.
bool slider_on_line(const Board& board, int square, int step, char first, char second) {
  for (int s = square + step; on_board(s); s += step) {
    const char piece = board.squares[s];
    if (piece == EMPTY) continue;
    return piece == first || piece == second;
  }
  return false;
}

}  // namespace

int king_square(const Board& board, Side side) {
  const char king = piece_of(side, 'K');
  for (int s = 0; s < 128; ++s)
    if (on_board(s) && board.squares[s] == king) return s;
  return NO_SQUARE;
}

bool attacked(const Board& board, int square, Side by) {
  // A pawn attacks the two squares diagonally ahead of it.
  const int pawn_behind = by == WHITE ? -16 : 16;
  for (const int side_step : {-1, 1}) {
    const int from = square + pawn_behind + side_step;
    if (on_board(from) && board.squares[from] == piece_of(by, 'P')) return true;
  }
  for (const int step : KNIGHT_STEPS)
    if (on_board(square + step) && board.squares[square + step] == piece_of(by, 'N')) return true;
  for (const int step : KING_STEPS)
    if (on_board(square + step) && board.squares[square + step] == piece_of(by, 'K')) return true;
  for (const int step : DIAGONAL_STEPS)
    if (slider_on_line(board, square, step, piece_of(by, 'B'), piece_of(by, 'Q'))) return true;
  for (const int step : STRAIGHT_STEPS)
    if (slider_on_line(board, square, step, piece_of(by, 'R'), piece_of(by, 'Q'))) return true;
  return false;
}

std::optional<Board> board_from_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = split_fields(fen);
  if (fields.size() < 4) return std::nullopt;
  Board board;
  if (!read_placement(fields[0], board)) return std::nullopt;
  if (fields[1] != "w" && fields[1] != "b") return std::nullopt;
  board.to_move = fields[1] == "w" ? WHITE : BLACK;
  if (fields[2] != "-")
    for (const char letter : fields[2])
      if (!read_castling_letter(letter, board)) return std::nullopt;
  if (fields[3] != "-") {
    if (fields[3].size() != 2 || fields[3][0] < 'a' || fields[3][0] > 'h' || fields[3][1] < '1' || fields[3][1] > '8')
      return std::nullopt;
    board.en_passant = square_at(fields[3][0] - 'a', fields[3][1] - '1');
  }
  return board;
}

}  // namespace oracle
