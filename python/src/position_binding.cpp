// perftkit.Position: a small, exact position type for tests and scripts. Each method is one
// call into the chess core, with no Python objects made beyond its result.
#include <nanobind/operators.h>
#include <nanobind/stl/string.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "common/errors.hpp"
#include "interruptible.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "perft/driver.hpp"
#include "pipeline/frontier.hpp"
#include "perftkit/classify.hpp"
#include "perftkit/move_list.hpp"

namespace nb = nanobind;

namespace perftkit::python {
namespace {

// The UCI text of a move as a Python str, made once per move and kept for the module's life:
// a move's text depends only on its 16 bits (and on the castling notation), so legal_moves()
// hands out references instead of making a string per move.
PyObject* uci_string(Move m, bool chess960) {
  static std::array<PyObject*, 2 * 65536> made{};
  PyObject*& slot = made[std::size_t(chess960) * 65536 + m.raw()];
  if (!slot) {
    const std::string text = to_uci(m, chess960);
    slot = PyUnicode_InternFromString(text.c_str());
    if (!slot) throw nb::python_error();
  }
  return slot;
}

using MoveArray = std::array<Move, MAX_LEGAL_MOVES>;

// The legal moves of pos in listed, in the generator's order; their number (listed.size() when
// there are that many or more: see PyPosition::legal_moves_beyond_the_list).
std::size_t list_moves(const Position& pos, MoveArray& listed) {
  std::size_t count = 0;
  const auto add = [&](Move m) {
    if (count < listed.size()) listed[count++] = m;
  };
  if (pos.side_to_move == WHITE) for_each_listed_move<WHITE>(pos, add);
  else for_each_listed_move<BLACK>(pos, add);
  return count;
}

class PyPosition {
 public:
  explicit PyPosition(const std::string& fen) {
    const FenResult parsed = parse_fen(fen);
    if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
    position_ = parsed->position;
    chess960_ = parsed->chess960;
  }

  // UCI moves, in the generator's order; castling as king-takes-rook in Chess960.
  nb::list legal_moves() const {
    MoveArray listed;
    const std::size_t count = list_moves(position_, listed);
    if (count == listed.size()) return legal_moves_beyond_the_list();
    nb::list moves = nb::steal<nb::list>(PyList_New(Py_ssize_t(count)));
    for (std::size_t i = 0; i < count; ++i) {
      PyObject* text = uci_string(listed[i], chess960_);
      Py_INCREF(text);
      PyList_SET_ITEM(moves.ptr(), Py_ssize_t(i), text);
    }
    return moves;
  }

  void push(const std::string& uci) {
    const std::optional<Move> move = parse_uci_move(position_, uci);
    if (!move) throw UsageError("move '" + uci + "' is not legal in " + to_fen(position_));
    position_ = make_move(position_, *move);
  }

  std::string fen() const {
    char text[FEN_MAX_BYTES];
    return std::string(text, write_fen(position_, text));
  }

  bool is_check() const { return classify(position_).in_check; }
  bool is_checkmate() const { return classify(position_).checkmate; }
  bool is_stalemate() const { return classify(position_).stalemate; }
  // Neither side can mate on material alone (python-chess's is_insufficient_material()).
  bool is_insufficient_material() const {
    return insufficient_material(position_, WHITE) && insufficient_material(position_, BLACK);
  }

  // perft on one thread, without a table: the plain recursive count.
  nb::object perft(int depth) const {
    if (depth < 0) throw UsageError("depth: must be at least 0, not " + std::to_string(depth));
    PerftRequest req;
    req.root = position_;
    req.depth = depth;
    req.threads = 1;
    req.backend = Backend::CPU;
    return to_python_int(run_interruptibly([req] { return run_perft(req); }).nodes);
  }

  bool operator==(const PyPosition& other) const { return fen() == other.fen(); }

 private:
  // An invented position with more moves than a list holds (a board full of queens).
  nb::list legal_moves_beyond_the_list() const {
    nb::list moves;
    for (Move m : root_moves(position_)) moves.append(nb::borrow(uci_string(m, chess960_)));
    return moves;
  }

  Position position_{};
  bool chess960_ = false;
};

// Seconds per call of work(pos) over `repeats` calls. The position is read anew by each call
// (as a call from Python reads it), so that no call's work is hoisted out of the loop.
template <typename Work>
double seconds_per_call(const Position& position, int repeats, Work work) {
  Position pos = position;
  std::uint64_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    asm volatile("" : "+m"(pos));
    sink += work(pos);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const volatile std::uint64_t kept = sink;  // the results are used, so the work is done
  (void)kept;
  return seconds / repeats;
}

// The C++ work of a Position method without Python, for bench/python_api.py to tell the
// binding's overhead from the work itself.
double cpp_seconds_per_call(const std::string& method, const std::string& fen, int repeats) {
  const FenResult parsed = parse_fen(fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  if (method == "legal_moves")  // the moves listed; their texts are the binding's (cached)
    return seconds_per_call(parsed->position, repeats, [](const Position& pos) {
      MoveArray listed;
      return list_moves(pos, listed) + listed[0].raw();
    });
  if (method == "fen")
    return seconds_per_call(parsed->position, repeats, [](const Position& pos) {
      char text[FEN_MAX_BYTES];
      return std::size_t(write_fen(pos, text) - text);
    });
  if (method == "is_check")
    return seconds_per_call(parsed->position, repeats,
                            [](const Position& pos) { return std::size_t(classify(pos).in_check); });
  throw UsageError("method: '" + method + "' is not legal_moves, fen or is_check");
}

}  // namespace

void bind_position(nb::module_& m) {
  nb::class_<PyPosition>(m, "Position",
                         "A chess position: legal moves, check and mate, and perft. Position('startpos') or\n"
                         "Position(fen); a FEN with 4 to 6 fields, X-FEN or Shredder-FEN castling for Chess960.")
      .def(nb::init<const std::string&>(), nb::arg("fen") = "startpos")
      .def("legal_moves", &PyPosition::legal_moves, nb::sig("def legal_moves(self) -> list[str]"),
           "The legal moves, as UCI strings.")
      .def("push", &PyPosition::push, nb::arg("uci"), "Plays a legal move given in UCI; ValueError if it is not legal.")
      .def("fen", &PyPosition::fen, "The position as a 6-field FEN.")
      .def("is_check", &PyPosition::is_check, "Whether the side to move is in check.")
      .def("is_checkmate", &PyPosition::is_checkmate, "Whether the side to move is checkmated.")
      .def("is_stalemate", &PyPosition::is_stalemate, "Whether the side to move has no legal move and is not in check.")
      .def("is_insufficient_material", &PyPosition::is_insufficient_material,
           "Whether neither side can mate on material alone.")
      .def("perft", &PyPosition::perft, nb::sig("def perft(self, depth: int) -> int"), nb::arg("depth"),
           "Leaf nodes depth plies deep, on one thread.")
      .def(nb::self == nb::self)
      .def("__repr__", [](const PyPosition& p) { return "Position('" + p.fen() + "')"; });
  m.def("_cpp_seconds_per_call", &cpp_seconds_per_call, nb::arg("method"), nb::arg("fen"), nb::arg("repeats"),
        "Seconds per call of a Position method's C++ work alone (for bench/python_api.py).");
}

}  // namespace perftkit::python
