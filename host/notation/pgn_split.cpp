// Game boundaries in a PGN stream (PGN standard 8.2.6: a game ends with its termination marker).
#include "notation/pgn_split.hpp"

#include "notation/pgn_lexer.hpp"

namespace perftkit {

GameExtent find_game_end(std::string_view text, bool at_eof) {
  PgnLexer lexer(text, at_eof);
  bool in_tag = false, in_movetext = false, has_content = false;
  int depth = 0;
  for (;;) {
    const PgnLexeme lexeme = lexer.next();
    switch (lexeme.kind) {
      case PgnToken::END:
      case PgnToken::INCOMPLETE: return {text.size(), at_eof, has_content};
      case PgnToken::TAG_OPEN:
        if (in_movetext && depth == 0) return {lexeme.offset, true, true};
        in_tag = has_content = true;
        break;
      case PgnToken::TAG_CLOSE: in_tag = false; break;
      case PgnToken::COMMENT: break;
      case PgnToken::VARIATION_OPEN:
        ++depth;
        in_movetext = has_content = true;
        break;
      case PgnToken::VARIATION_CLOSE:
        if (depth > 0) --depth;
        break;
      default:
        if (in_tag) break;
        if (depth == 0 && is_result_token(lexeme)) return {lexer.offset(), true, true};
        in_movetext = has_content = true;
        break;
    }
  }
}

}  // namespace perftkit
