#include "notation/pgn_game.hpp"

#include <algorithm>
#include <initializer_list>

#include "notation/fen.hpp"
#include "notation/pgn_chars.hpp"
#include "notation/pgn_lexer.hpp"
#include "notation/pgn_repetition.hpp"
#include "notation/san.hpp"

namespace perftkit {
namespace {

using pgn_chars::is_digit;

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return (x | 0x20) == (y | 0x20); });
}

bool one_of(std::string_view v, std::initializer_list<std::string_view> names) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return equals_ignoring_case(v, n); });
}

// Variants whose moves are those of chess, in any case, as match software and databases
// spell them: standard chess (TCEC's archive writes "normal"), or Chess960 with its own
// castling (Cute Chess writes "fischerandom").
bool standard_variant(std::string_view v) {
  return v.empty() || one_of(v, {"standard", "normal", "chess", "classical", "from position"});
}
bool chess960_variant(std::string_view v) {
  return one_of(v, {"chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random", "frc"});
}

// A tag value with the PGN string escapes (\" and \\) removed.
std::string unescape(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
    out += raw[i];
  }
  return out;
}

// Printable text for a message, cut short.
std::string shown(std::string_view text) {
  std::string out(text.substr(0, 32));
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7F) ch = '?';
  return text.size() > 32 ? out + "..." : out;
}

class Replayer {
 public:
  Replayer(std::string_view text, PgnVisitor& visitor)
      : lexer_(text, true), visitor_(visitor), details_(visitor.wants_details()) {}

  PgnReplay run() {
    PgnLexeme lexeme = lexer_.next();
    std::string fen, variant;
    while (lexeme.kind == PgnToken::TAG_OPEN || lexeme.kind == PgnToken::COMMENT) {
      if (lexeme.kind == PgnToken::TAG_OPEN && !read_tag(fen, variant)) return std::move(result_);
      lexeme = lexer_.next();
    }
    if (!start(fen, variant)) return std::move(result_);
    for (;; lexeme = lexer_.next()) {
      if (!movetext_token(lexeme)) break;
    }
    flush();
    result_.last = pos_;  // (the last position emitted: a move that fails is never played)
    return std::move(result_);
  }

 private:
  // [Name "value"]: keeps FEN and Variant, ignores the rest.
  bool read_tag(std::string& fen, std::string& variant) {
    const PgnLexeme name = lexer_.next();
    const PgnLexeme value = lexer_.next();
    const PgnLexeme close = lexer_.next();
    if (name.kind != PgnToken::SYMBOL || value.kind != PgnToken::STRING || close.kind != PgnToken::TAG_CLOSE)
      return fail(0, "malformed tag near '" + shown(name.text) + "'");
    if (name.text == "FEN") fen = unescape(value.text);
    else if (name.text == "Variant") variant = unescape(value.text);
    if (details_) visitor_.tag(name.text, unescaped(value.text));
    return true;
  }

  // A tag value as the visitor gets it: the text itself when it has no escape (the usual
  // case), else its unescaped copy.
  std::string_view unescaped(std::string_view raw) {
    if (raw.find('\\') == std::string_view::npos) return raw;
    unescaped_ = unescape(raw);
    return unescaped_;
  }

  bool start(const std::string& fen, const std::string& variant) {
    result_.chess960 = chess960_variant(variant);
    if (!result_.chess960 && !standard_variant(variant))
      return fail(0, "variant '" + shown(variant) + "' is not supported");
    if (fen.empty()) {
      static const Position START = parse_fen(START_FEN)->position;  // read once, not once a game
      pos_ = START;
    } else {
      const FenResult parsed = parse_fen(fen);
      if (!parsed) return fail(0, "FEN tag: " + parsed.error);
      pos_ = parsed->position;
      result_.warnings = parsed->warnings;
      result_.chess960 |= parsed->chess960;
    }
    visitor_.start(result_.warnings, result_.chess960);
    emit();
    return true;
  }

  void emit() { visitor_.position(pos_, result_.plies, history_.record(pos_)); }

  // The position after the last move, once its comments are in (details only).
  void flush() {
    if (!pending_) return;
    pending_ = false;
    visitor_.move(pending_san_, pending_move_, comments_);
    emit();
  }

  bool fail(int ply, std::string message) {
    result_.error_ply = ply;
    result_.error = std::move(message);
    return false;
  }

  // Plays or skips one movetext token; false at the end of the game or on an error.
  bool movetext_token(const PgnLexeme& lexeme) {
    switch (lexeme.kind) {
      case PgnToken::END: return false;
      case PgnToken::SYMBOL:
        if (is_digit(lexeme.text[0])) {  // a move number or a result (a move never starts with a digit)
          if (std::all_of(lexeme.text.begin(), lexeme.text.end(), is_digit)) {
            lexer_.skip_periods();  // "12." or "12...": the periods mean nothing here
            return true;
          }
          if (pgn_chars::is_result_symbol(lexeme.text)) return false;
        }
        return play(lexeme.text);
      case PgnToken::STAR: return false;
      case PgnToken::VARIATION_OPEN: return skip_variation();
      case PgnToken::TAG_OPEN: return skip_tag();
      case PgnToken::COMMENT:
        if (pending_) add_comment(lexeme.text);
        return true;
      case PgnToken::NULL_MOVE: return fail(result_.plies + 1, "null move '--' is not supported");
      case PgnToken::INCOMPLETE: return fail(result_.plies + 1, "unterminated comment or string");
      case PgnToken::OTHER: return fail(result_.plies + 1, "unexpected character '" + shown(lexeme.text) + "'");
      default: return true;  // periods, NAGs, annotations, comments, stray ')' and strings
    }
  }

  bool play(std::string_view san) {
    flush();
    const SanResult move = parse_san(pos_, san);
    if (move.status != SanStatus::OK)
      return fail(result_.plies + 1, std::string(san_status_word(move.status)) + " move " + shown(san));
    pos_ = make_move(pos_, move.move);
    ++result_.plies;
    if (!details_) {
      emit();
      return true;
    }
    pending_ = true;
    pending_san_ = san;
    pending_move_ = move.move;
    comments_ = {};
    return true;
  }

  // The comments after a move, joined by spaces. The usual single comment stays a view into
  // the game's text; only a second one is copied.
  void add_comment(std::string_view text) {
    if (comments_.empty()) {
      comments_ = text;
      return;
    }
    if (comments_.data() != joined_comments_.data()) joined_comments_.assign(comments_);
    joined_comments_ += ' ';
    joined_comments_.append(text);
    comments_ = joined_comments_;
  }

  // Skips a recursive annotation variation, nested ones included.
  bool skip_variation() {
    for (int depth = 1; depth > 0;) {
      const PgnLexeme lexeme = lexer_.next();
      if (lexeme.kind == PgnToken::END || lexeme.kind == PgnToken::INCOMPLETE)
        return fail(result_.plies + 1, "unterminated variation");
      depth += (lexeme.kind == PgnToken::VARIATION_OPEN) - (lexeme.kind == PgnToken::VARIATION_CLOSE);
    }
    return true;
  }

  bool skip_tag() {
    for (PgnLexeme lexeme = lexer_.next(); lexeme.kind != PgnToken::TAG_CLOSE; lexeme = lexer_.next())
      if (lexeme.kind == PgnToken::END || lexeme.kind == PgnToken::INCOMPLETE) return false;
    return true;
  }

  PgnLexer lexer_;
  PgnVisitor& visitor_;
  bool details_;
  bool pending_ = false;  // a position waits for the comments after its move
  std::string_view pending_san_;
  Move pending_move_{};
  std::string_view comments_;    // of the pending move (a comment's text includes its braces: never empty)
  std::string joined_comments_;  // two or more of them
  std::string unescaped_;        // the last tag value that had escapes
  PgnReplay result_;
  Position pos_{};
  RepetitionHistory history_;
};

}  // namespace

PgnReplay replay_game(std::string_view text, PgnVisitor& visitor) { return Replayer(text, visitor).run(); }

}  // namespace perftkit
