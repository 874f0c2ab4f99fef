// PGN tokens: what is not inlined (pgn_lexer.hpp holds the lexer itself).
#include "notation/pgn_lexer.hpp"

namespace perftkit {

bool is_result_token(const PgnLexeme& lexeme) {
  if (lexeme.kind == PgnToken::STAR) return true;
  return lexeme.kind == PgnToken::SYMBOL && pgn_chars::is_result_symbol(lexeme.text);
}

}  // namespace perftkit
