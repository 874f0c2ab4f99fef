// PGN tokens (the PGN standard, section 7), read from a text that may end mid-token.
#pragma once

#include <cstddef>
#include <string_view>

namespace perftkit {

enum class PgnToken : unsigned char {
  END,              // no more tokens in the text
  INCOMPLETE,       // the text ends inside a token; more input is needed (or, at EOF, the token is cut off)
  TAG_OPEN,         // [
  TAG_CLOSE,        // ]
  STRING,           // "..." with \" and \\ escapes; text is the raw contents between the quotes
  SYMBOL,           // moves, move numbers, results, tag names: [A-Za-z0-9][A-Za-z0-9_+#=:/-]*
  PERIOD,           // .
  STAR,             // * (unknown result)
  NAG,              // $ and digits
  ANNOTATION,       // a run of ! and ? ("!?", "??")
  COMMENT,          // {...} or ;... to the end of the line
  VARIATION_OPEN,   // (
  VARIATION_CLOSE,  // )
  NULL_MOVE,        // -- (a null move, as some tools write)
  OTHER,            // any other byte (one byte)
};

struct PgnLexeme {
  PgnToken kind;
  std::string_view text;
  std::size_t offset;  // where the lexeme begins in the lexer's text
};

// Reads the tokens of text one by one. Escape lines ("%..." at the start of a line) are
// skipped like whitespace. at_eof says that nothing follows text: a symbol or comment that
// reaches its end is then complete (a string or brace comment is still INCOMPLETE).
class PgnLexer {
 public:
  PgnLexer(std::string_view text, bool at_eof) : text_(text), at_eof_(at_eof) {}

  PgnLexeme next();
  // Steps over periods and the blanks around them (those after a move number: "12." or
  // "12...", which a reader of the moves has no use for) without making tokens of them.
  void skip_periods();
  std::size_t offset() const { return pos_; }

 private:
  void skip_blanks_and_escapes();

  std::string_view text_;
  std::size_t pos_ = 0;
  bool at_eof_;
};

// True for the four game termination markers: 1-0, 0-1, 1/2-1/2 and *.
bool is_result_token(const PgnLexeme& lexeme);

}  // namespace perftkit
