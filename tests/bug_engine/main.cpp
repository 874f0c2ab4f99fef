// perftkit_bug_engine: a test engine over perftkit's core with one injected bug, speaking
// the three protocols `perftkit diff` drives:
//   perftkit_bug_engine [--bug NAME] [--chess960] uci
//   perftkit_bug_engine [--bug NAME] [--chess960] perftree DEPTH FEN [MOVES]
//   perftkit_bug_engine [--bug NAME] [--chess960] divide FEN DEPTH [MOVES]
#include <csignal>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bug_engine/buggy_moves.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"

#include "support/sanitized_build.hpp"

#if PERFTKIT_TEST_SANITIZED
// The injected crash must end the engine by SIGSEGV, as a real engine's crash would, not by a
// sanitizer's report and exit code: `perftkit diff` is tested on the signal it names.
extern "C" const char* __asan_default_options() { return "handle_segv=0"; }
extern "C" const char* __tsan_default_options() { return "handle_segv=0"; }
#endif

using namespace perftkit;
using namespace perftkit::bug_engine;

namespace {

struct Engine {
  Bug bug = Bug::NONE;
  bool chess960 = false;
};

// The state after playing moves (the buggy generator's own texts) from fen, or an error.
std::optional<BugState> reach(const std::string& fen, const std::vector<std::string>& moves, const Engine& engine,
                              std::string& error) {
  const FenResult parsed = parse_fen(fen);
  if (!parsed) {
    error = "bad fen: " + parsed.error;
    return std::nullopt;
  }
  BugState state{parsed->position};
  for (const std::string& text : moves) {
    bool found = false;
    for (BuggyMove& m : buggy_moves(state, engine.bug, engine.chess960)) {
      if (m.uci != text) continue;
      state = m.child;
      found = true;
      break;
    }
    if (!found) {
      error = "illegal move " + text;
      return std::nullopt;
    }
  }
  return state;
}

// The move as SAN_LINES writes it: the piece's letter (none for a pawn) and the target
// square, as in "Nf3" or "e4" (enough to look like SAN; no captures or disambiguation).
std::string san_like(const Position& pos, const std::string& uci) {
  const PieceType piece = pos.piece_type_on(Square((uci[1] - '1') * 8 + (uci[0] - 'a')));
  const char* letters = " PNBRQK";
  std::string text = piece == PAWN ? "" : std::string(1, letters[piece]);
  return text + uci.substr(2, 2);
}

// The divide lines in the engine's format: "uci: n" (sep ": ") or "uci n" (sep " ").
// at_root: no moves were played from the root.
std::uint64_t print_divide(const BugState& state, int depth, const Engine& engine, const char* separator,
                           bool at_root = true) {
  if (depth > 1 && engine.bug == Bug::CRASH) std::raise(SIGSEGV);
  if (!at_root && engine.bug == Bug::CRASH_BELOW_ROOT) std::raise(SIGSEGV);
  if (depth > 1 && engine.bug == Bug::HANG) std::this_thread::sleep_for(std::chrono::hours(1));
  std::uint64_t total = 0;
  bool first = true;
  for (const BuggyMove& m : buggy_moves(state, engine.bug, engine.chess960)) {
    std::uint64_t nodes = buggy_perft(m.child, depth - 1, engine.bug, engine.chess960);
    if (engine.bug == Bug::CRASH_BELOW_ROOT && std::exchange(first, false)) ++nodes;
    const std::string move = engine.bug == Bug::SAN_LINES ? san_like(state.pos, m.uci) : m.uci;
    std::printf("%s%s%llu\n", move.c_str(), separator, static_cast<unsigned long long>(nodes));
    total += nodes;
    if (engine.bug == Bug::GARBAGE) std::printf("#@!%% garbage\n");
  }
  if (engine.bug == Bug::PHANTOM_MOVE) {
    std::printf("h3h5%s7\n", separator);
    total += 7;
  }
  return total;
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

int run_uci(Engine& engine) {
  std::string fen = "startpos";
  std::vector<std::string> moves;
  for (std::string line; std::getline(std::cin, line);) {
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) continue;
    if (words[0] == "uci") {
      std::printf("id name perftkit_bug_engine\noption name UCI_Chess960 type check default false\nuciok\n");
    } else if (words[0] == "isready") {
      std::printf("readyok\n");
    } else if (words[0] == "setoption" && line.find("UCI_Chess960 value true") != std::string::npos) {
      engine.chess960 = true;
    } else if (words[0] == "position" && words.size() >= 2) {
      std::size_t i = 2;
      if (words[1] == "startpos") {
        fen = "startpos";
      } else {
        fen.clear();
        for (; i < words.size() && words[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + words[i];
      }
      moves.clear();
      if (i < words.size() && words[i] == "moves") moves.assign(words.begin() + long(i) + 1, words.end());
    } else if (words[0] == "go" && words.size() == 3 && words[1] == "perft") {
      std::string error;
      const std::optional<BugState> state = reach(fen, moves, engine, error);
      if (!state) {
        std::printf("info string %s\n", error.c_str());
        continue;
      }
      const std::uint64_t total = print_divide(*state, std::stoi(words[2]), engine, ": ", moves.empty());
      std::printf("\nNodes searched: %llu\n\n", static_cast<unsigned long long>(total));
    } else if (words[0] == "quit") {
      return 0;
    }
    std::fflush(stdout);
  }
  return 0;
}

int run_once(const Engine& engine, const std::string& fen, int depth, const std::string& moves, bool perftree) {
  std::string error;
  const std::optional<BugState> state = reach(fen, words_of(moves), engine, error);
  if (!state) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  if (!perftree) std::printf("Depth %d\n", depth);
  const std::uint64_t total = print_divide(*state, depth, engine, perftree ? " " : " - ", words_of(moves).empty());
  if (perftree) std::printf("\n%llu\n", static_cast<unsigned long long>(total));
  else std::printf("Nodes: %llu\n", static_cast<unsigned long long>(total));
  return 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: perftkit_bug_engine [--bug NAME] [--chess960] uci | perftree DEPTH FEN [MOVES] | divide FEN "
               "DEPTH [MOVES]\n"
               "bugs: %s\n",
               bug_names().c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--bug" && i + 1 < argc) {
      const std::optional<Bug> bug = parse_bug(argv[++i]);
      if (!bug) return usage();
      engine.bug = *bug;
    } else if (arg == "--chess960") {
      engine.chess960 = true;
    } else {
      break;
    }
  }
  if (i >= argc) return usage();
  const std::string mode = argv[i];
  const int left = argc - i - 1;
  if (mode == "uci") return run_uci(engine);
  if (mode == "perftree" && left >= 2)
    return run_once(engine, argv[i + 2], std::stoi(argv[i + 1]), left >= 3 ? argv[i + 3] : "", true);
  if (mode == "divide" && left >= 2)
    return run_once(engine, argv[i + 1], std::stoi(argv[i + 2]), left >= 3 ? argv[i + 3] : "", false);
  return usage();
}
