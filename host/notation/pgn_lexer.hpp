// PGN tokens (the PGN standard, section 7), read from a text that may end mid-token.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/find_byte.hpp"
#include "notation/pgn_chars.hpp"
#include "perftkit/config.hpp"

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

// The lexical rules of the PGN standard, section 7 (and 8.2.5 for suffixes), defined here to
// be inlined: a game's reader takes every token through next(), about four a move, and a call
// for each (a token returned through memory, the switch on the byte taken through a jump
// table the predictor rarely gets right) cost more than the tokens themselves.

// (inlined: it runs before every token, and most often steps over one space)
PERFTKIT_FORCEINLINE void PgnLexer::skip_blanks_and_escapes() {
  while (pos_ < text_.size()) {
    const char ch = text_[pos_];
    if (pgn_chars::is_space(ch)) {
      ++pos_;
    } else if (ch == '%' && (pos_ == 0 || text_[pos_ - 1] == '\n')) {
      const std::size_t eol = text_.find('\n', pos_);
      pos_ = eol == std::string_view::npos ? text_.size() : eol + 1;
    } else {
      return;
    }
  }
}

inline void PgnLexer::skip_periods() {
  for (skip_blanks_and_escapes(); pos_ < text_.size() && text_[pos_] == '.'; skip_blanks_and_escapes()) ++pos_;
}

PERFTKIT_FORCEINLINE PgnLexeme PgnLexer::next() {
  skip_blanks_and_escapes();
  const std::size_t begin = pos_;
  if (begin >= text_.size()) return {PgnToken::END, {}, begin};
  const auto lexeme = [&](PgnToken kind, std::size_t end) {
    pos_ = end;
    return PgnLexeme{kind, text_.substr(begin, end - begin), begin};
  };
  const auto run_end = [&](auto&& belongs) {
    std::size_t end = begin + 1;
    while (end < text_.size() && belongs(text_[end])) ++end;
    return end;
  };
  const char ch = text_[begin];
  switch (ch) {
    case '[': return lexeme(PgnToken::TAG_OPEN, begin + 1);
    case ']': return lexeme(PgnToken::TAG_CLOSE, begin + 1);
    case '(': return lexeme(PgnToken::VARIATION_OPEN, begin + 1);
    case ')': return lexeme(PgnToken::VARIATION_CLOSE, begin + 1);
    case '.': return lexeme(PgnToken::PERIOD, begin + 1);
    case '*': return lexeme(PgnToken::STAR, begin + 1);
    case '"': {
      const std::size_t close = pgn_chars::string_close(text_, begin + 1);
      if (close == std::string_view::npos) return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
      pos_ = close + 1;
      return {PgnToken::STRING, text_.substr(begin + 1, close - begin - 1), begin};
    }
    case '{': {
      const std::size_t close = find_byte(text_, '}', begin);
      if (close == std::string_view::npos) return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
      return lexeme(PgnToken::COMMENT, close + 1);
    }
    case ';': {
      const std::size_t eol = text_.find('\n', begin);
      if (eol == std::string_view::npos && !at_eof_) return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
      return lexeme(PgnToken::COMMENT, eol == std::string_view::npos ? text_.size() : eol);
    }
    default: break;
  }
  PgnToken kind = PgnToken::OTHER;
  std::size_t end = begin + 1;
  if (ch == '$') {
    kind = PgnToken::NAG;
    end = run_end(pgn_chars::is_digit);
  } else if (ch == '!' || ch == '?') {
    kind = PgnToken::ANNOTATION;
    end = run_end([](char c) { return c == '!' || c == '?'; });
  } else if (pgn_chars::is_alnum(ch)) {
    kind = PgnToken::SYMBOL;
    end = pgn_chars::symbol_end(text_, begin + 1);
  } else if (ch == '-' && begin + 1 < text_.size() && text_[begin + 1] == '-') {
    kind = PgnToken::NULL_MOVE;
    end = begin + 2;
  } else if (ch == '-' && begin + 1 == text_.size() && !at_eof_) {
    return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
  }
  // A run that reaches the end of the text may continue in the input not read yet.
  if (end == text_.size() && !at_eof_ && kind != PgnToken::OTHER)
    return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
  return lexeme(kind, end);
}

}  // namespace perftkit
