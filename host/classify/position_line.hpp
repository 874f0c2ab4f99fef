// One line of a FEN or EPD file, split into the position and what follows it (an id).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace perftkit {

struct PositionLine {
  bool blank = true;                         // empty, or a '#' comment: no position on this line
  bool epd = false;                          // EPD operations (a ';') follow the four position fields
  std::array<std::string_view, 6> fields{};  // the position's fields (clocks included)
  std::size_t field_count = 0;
  std::string_view position;  // what the parser reads: the FEN fields, or the whole EPD line
  std::string_view shown;     // the position fields as written, for a rejected row
  std::string_view id;        // the rest of the line (an EPD line: its id operand, if any)
};

// A FEN line is four fields, up to two clocks (numbers, signed or not), then anything (the
// id: "FEN6 GAMEID").
// An EPD line is four fields and operations ending in ';'; its id is the "id" operand, or
// else all its operations. Fewer than four fields are all taken as the position (the parser
// then rejects it with the reason).
PositionLine split_position_line(std::string_view line);

}  // namespace perftkit
