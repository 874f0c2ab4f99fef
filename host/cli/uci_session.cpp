#include "cli/uci_session.hpp"

#include <cctype>
#include <charconv>
#include <exception>
#include <optional>
#include <sstream>

#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "perft/driver.hpp"
#include "common/build_info.hpp"

namespace perftkit {
namespace {

constexpr int MAX_PERFT_DEPTH = 30;
constexpr std::size_t MAX_HASH_MB = std::size_t(1) << 20;

std::vector<std::string> words_of(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// A whole decimal number in [low, high], or nullopt.
std::optional<long long> number_in(const std::string& text, long long low, long long high) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < low || value > high) return std::nullopt;
  return value;
}

// The words from `from` up to (not including) the first `stop`, joined by spaces.
std::string join_until(const std::vector<std::string>& words, std::size_t from, std::string_view stop) {
  std::string joined;
  for (std::size_t i = from; i < words.size() && words[i] != stop; ++i)
    joined += (joined.empty() ? "" : " ") + words[i];
  return joined;
}

char piece_letter(const Position& pos, Square s) {
  const Bitboard b = square_bb(s);
  if (!(pos.occupied() & b)) return '.';
  const char letter = " pnbrqk"[pos.piece_type_on(s)];
  return (pos.by_color[WHITE] & b) ? char(letter - 'a' + 'A') : letter;
}

}  // namespace

UciSession::UciSession(std::ostream& out)
    : out_(out), position_(parse_fen("startpos")->position), threads_(hardware_threads()) {}

bool UciSession::handle(std::string_view line) {
  const std::vector<std::string> words = words_of(line);
  if (words.empty()) return true;
  const std::string& command = words[0];
  if (command == "quit") return false;
  if (command == "uci") identify();
  else if (command == "isready") out_ << "readyok\n";
  else if (command == "ucinewgame") {
  } else if (command == "setoption") set_option(words);
  else if (command == "position") set_position(words);
  else if (command == "go") go(words);
  else if (command == "d") display();
  else
    error("unknown command '" + command +
          "' (perftkit answers uci, isready, ucinewgame, setoption, position, "
          "go perft N, d and quit)");
  out_.flush();
  return true;
}

void UciSession::identify() {
  out_ << "id name perftkit " << perftkit_version() << "\n"
       << "id author the perftkit developers\n\n"
       << "option name UCI_Chess960 type check default false\n"
       << "option name Threads type spin default " << hardware_threads() << " min 1 max 4096\n"
       << "option name Hash type spin default 16 min 0 max " << MAX_HASH_MB << "\n"
       << "uciok\n";
}

// setoption name NAME value VALUE (NAME is matched without regard to case, as UCI asks).
void UciSession::set_option(const std::vector<std::string>& words) {
  if (words.size() < 5 || words[1] != "name" || words[3] != "value") {
    error("setoption: expected 'setoption name NAME value VALUE'");
    return;
  }
  std::string name = words[2];
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  const std::string& value = words[4];
  if (name == "uci_chess960") {
    if (value != "true" && value != "false") return error("setoption UCI_Chess960: value must be true or false");
    chess960_ = value == "true";
  } else if (name == "threads") {
    const auto threads = number_in(value, 1, 4096);
    if (!threads) return error("setoption Threads: value must be a whole number from 1 to 4096");
    threads_ = unsigned(*threads);
  } else if (name == "hash") {
    const auto mb = number_in(value, 0, static_cast<long long>(MAX_HASH_MB));
    if (!mb)
      return error("setoption Hash: value must be a whole number of MB from 0 to " + std::to_string(MAX_HASH_MB));
    hash_mb_ = std::size_t(*mb);
  } else {
    error("setoption: unknown option '" + words[2] + "' (UCI_Chess960, Threads, Hash)");
  }
}

// position startpos|fen FEN [moves M...]: the position changes only when all of it is valid.
void UciSession::set_position(const std::vector<std::string>& words) {
  if (words.size() < 2 || (words[1] != "startpos" && words[1] != "fen"))
    return error("position: expected 'position startpos|fen FEN [moves ...]'");
  const std::string fen = words[1] == "startpos" ? "startpos" : join_until(words, 2, "moves");
  const FenResult parsed = parse_fen(fen);
  if (!parsed) return error("position: invalid FEN '" + fen + "': " + parsed.error);
  Position pos = parsed->position;
  std::vector<std::string> moves;
  bool after_moves = false;
  for (std::size_t i = 2; i < words.size(); ++i) {
    if (after_moves) moves.push_back(words[i]);
    after_moves = after_moves || words[i] == "moves";
  }
  if (const auto illegal = play_uci_moves(pos, moves))
    return error("position: move " + std::to_string(illegal->number) + " '" + illegal->text + "' is not legal in " +
                 to_fen(pos));
  position_ = pos;
}

// go perft N: `move: count` per legal move, a blank line, `Nodes searched: N`, a blank line.
void UciSession::go(const std::vector<std::string>& words) {
  if (words.size() != 3 || words[1] != "perft") return error("go: perftkit answers 'go perft N' only");
  const auto depth = number_in(words[2], 0, MAX_PERFT_DEPTH);
  if (!depth) return error("go perft: depth must be a whole number from 0 to " + std::to_string(MAX_PERFT_DEPTH));
  PerftRequest request;
  request.root = position_;
  request.depth = int(*depth);
  request.divide = true;
  request.threads = threads_;
  request.chess960 = chess960_;
  request.hash_bytes = hash_mb_ << 20;
  try {
    const PerftReport report = run_perft(request);
    for (const DivideEntry& entry : report.divide) out_ << entry.uci << ": " << to_string_u128(entry.nodes) << '\n';
    out_ << "\nNodes searched: " << to_string_u128(report.nodes) << "\n\n";
  } catch (const std::exception& e) {
    error(std::string("go perft: ") + e.what());
  }
}

void UciSession::display() {
  for (int rank = RANK_8; rank >= RANK_1; --rank) {
    out_ << ' ';
    for (int file = 0; file < 8; ++file) out_ << ' ' << piece_letter(position_, make_square(file, rank));
    out_ << '\n';
  }
  out_ << "\nFen: " << to_fen(position_) << '\n';
}

void UciSession::error(const std::string& message) { out_ << "info string error: " << message << '\n'; }

}  // namespace perftkit
