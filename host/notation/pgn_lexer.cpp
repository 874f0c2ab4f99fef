// PGN tokens: the lexical rules of the PGN standard, section 7 (and 8.2.5 for suffixes).
#include "notation/pgn_lexer.hpp"

#include "notation/pgn_chars.hpp"
#include "perftkit/config.hpp"

namespace perftkit {

using pgn_chars::is_alnum;
using pgn_chars::is_digit;
using pgn_chars::is_space;
using pgn_chars::is_symbol_char;

// (inlined: it runs before every token, and most often steps over one space)
PERFTKIT_FORCEINLINE void PgnLexer::skip_blanks_and_escapes() {
  while (pos_ < text_.size()) {
    const char ch = text_[pos_];
    if (is_space(ch)) {
      ++pos_;
    } else if (ch == '%' && (pos_ == 0 || text_[pos_ - 1] == '\n')) {
      const std::size_t eol = text_.find('\n', pos_);
      pos_ = eol == std::string_view::npos ? text_.size() : eol + 1;
    } else {
      return;
    }
  }
}

void PgnLexer::skip_periods() {
  for (skip_blanks_and_escapes(); pos_ < text_.size() && text_[pos_] == '.'; skip_blanks_and_escapes()) ++pos_;
}

PgnLexeme PgnLexer::next() {
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
      for (std::size_t i = begin + 1; i < text_.size(); ++i) {
        if (text_[i] == '\\') ++i;
        else if (text_[i] == '"') {
          pos_ = i + 1;
          return {PgnToken::STRING, text_.substr(begin + 1, i - begin - 1), begin};
        }
      }
      return {PgnToken::INCOMPLETE, text_.substr(begin), begin};
    }
    case '{': {
      const std::size_t close = text_.find('}', begin);
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
    end = run_end(is_digit);
  } else if (ch == '!' || ch == '?') {
    kind = PgnToken::ANNOTATION;
    end = run_end([](char c) { return c == '!' || c == '?'; });
  } else if (is_alnum(ch)) {
    kind = PgnToken::SYMBOL;
    end = run_end(is_symbol_char);
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

bool is_result_token(const PgnLexeme& lexeme) {
  if (lexeme.kind == PgnToken::STAR) return true;
  return lexeme.kind == PgnToken::SYMBOL && pgn_chars::is_result_symbol(lexeme.text);
}

}  // namespace perftkit
