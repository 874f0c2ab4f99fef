// FEN and EPD: parsing with validation, and writing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_result.hpp"
#include "notation/fen_warnings.hpp"  // FenWarning
#include "perftkit/position.hpp"

namespace perftkit {

struct ParsedPosition {
  Position position{};
  std::uint32_t warnings = WARN_NONE;
  bool chess960 = false;  // castling rights that only make sense in Chess960 (or Shredder letters)
};

// A parsed position, or the reason it was rejected (the message names the field and problem).
using FenResult = ParseResult<ParsedPosition>;

// FEN with 4 to 6 fields (missing clocks default to "0 1"); "startpos" is accepted too.
// Castling rights may be KQkq, X-FEN or Shredder-FEN letters. Fullmove 0 is read as 1; an
// en-passant square no pawn of the side to move attacks is validated, then dropped (as make_move does).
FenResult parse_fen(std::string_view fen);

// EPD: 4 position fields, then optional operations; "hmvc N;" and "fmvn N;" set the clocks.
// FEN-style clocks before the first operation ("... - 0 1 ;D1 20") are read too.
FenResult parse_epd(std::string_view epd);

// 6-field FEN; castling written as KQkq where the rook is the outermost one, else as
// the rook's file letter (X-FEN), which every Chess960-aware reader accepts.
std::string to_fen(const Position& pos);

// The same FEN written into out, which has room for FEN_MAX_BYTES; returns its end. No
// allocation: for writers of millions of rows. The longest FEN a valid position has: a full
// board (64 letters, 7 slashes), " w KQkq e3", and both clocks at their types' limits
// (" 65535 4294967295"): 98 bytes.
inline constexpr std::size_t FEN_MAX_BYTES = 71 + 10 + 6 + 11;
char* write_fen(const Position& pos, char* out);

// Writes the FENs of positions that follow each other move by move (a game's), the same text
// as write_fen: the castling field's text is kept while its rights, rooks and kings stay.
class FenWriter {
 public:
  char* write(const Position& pos, char* out);  // out has room for FEN_MAX_BYTES

 private:
  // The castling field, kept while the rights and the back ranks' rooks and kings stay.
  std::string_view castling_field(const Position& pos);

  std::uint64_t castling_key_ = ~std::uint64_t(0);  // (no position's key: the first write fills the text)
  std::array<char, 4> castling_text_{};
  std::uint8_t castling_size_ = 0;
};

inline constexpr std::string_view START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace perftkit
