// The board field of a FEN: ranks 8 to 1 separated by '/', each rank's pieces from file a
// to h as letters (upper case for White), a run of empty squares as its length.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "perftkit/position.hpp"

namespace perftkit {

// The room write_fen_board() needs at out: the longest board is 71 bytes, and a rank may be
// written with a 16-byte store at up to 63 bytes in (the whole board: 64 bytes, then 36 at up
// to 36 in).
inline constexpr std::size_t FEN_BOARD_ROOM = 80;

// Writes pos's board field at out (FEN_BOARD_ROOM bytes of room, of which only the field's
// own are meaningful); returns its end. The whole board at once where the CPU can, else rank
// by rank: the same text either way.
char* write_fen_board(const Position& pos, char* out);

// x86-64 compilers that can build one function for instructions the rest of the program
// may not assume (and check for them at run time).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PERFTKIT_WHOLE_FEN_BOARD 1
#else
#define PERFTKIT_WHOLE_FEN_BOARD 0
#endif

// Which writer write_fen_board() uses on this CPU, for people (perftkit info): "whole board
// (AVX-512 VBMI2)", "rank by rank (SSSE3)" or "square by square".
std::string_view fen_board_writer_name();

namespace detail {

// The byte-parallel writers' piece codes: a square's code is the sum of the weights of the
// sets that hold it (a queen is diagonal and orthogonal: 3 + 4), plus White's for a white
// piece; LETTER_OF_PIECE_CODE turns a code into its FEN letter (0 for an empty square).
inline constexpr char PAWN_WEIGHT = 1, KNIGHT_WEIGHT = 2, DIAGONAL_WEIGHT = 3, ORTHOGONAL_WEIGHT = 4, KING_WEIGHT = 5,
                      WHITE_WEIGHT = 8;
alignas(16) inline constexpr std::array<char, 16> LETTER_OF_PIECE_CODE = {0, 'p', 'n', 'b', 'r', 'k', 0, 'q',
                                                                          0, 'P', 'N', 'B', 'R', 'K', 0, 'Q'};
static_assert(LETTER_OF_PIECE_CODE[DIAGONAL_WEIGHT + ORTHOGONAL_WEIGHT] == 'q' &&
              LETTER_OF_PIECE_CODE[WHITE_WEIGHT + KING_WEIGHT] == 'K' && LETTER_OF_PIECE_CODE[PAWN_WEIGHT] == 'p');

// Rank by rank: a few byte shuffles a rank with SSSE3, else square by square.
char* write_fen_board_by_ranks(const Position& pos, char* out);

#if PERFTKIT_WHOLE_FEN_BOARD
// True when this CPU has what isa_avx512_vbmi2::write_fen_board() runs on: AVX-512 BW, VBMI
// and VBMI2, and BMI2.
bool cpu_writes_whole_fen_board();
#endif

}  // namespace detail

#if PERFTKIT_WHOLE_FEN_BOARD
// (A namespace of its own, as the CPU kernels' levels have, tells tests/checks/isa_confinement.py
// that its instructions run only once the CPU is known to have them.)
namespace isa_avx512_vbmi2 {
// The whole board at once: every square side by side, with no branch and no loop.
char* write_fen_board(const Position& pos, char* out);
}  // namespace isa_avx512_vbmi2
#endif

}  // namespace perftkit
