// perftkit.Position: a small, exact position type for tests and scripts. Each method is one
// call into the chess core, with no Python objects made beyond its result.
#include <nanobind/operators.h>
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "common/errors.hpp"
#include "interruptible.hpp"
#include "notation/fen.hpp"
#include "notation/uci.hpp"
#include "perft/driver.hpp"
#include "perftkit/classify.hpp"
#include "perftkit/move_list.hpp"

namespace nb = nanobind;

namespace perftkit::python {
namespace {

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
    nb::list moves;
    const auto add = [&](Move m) {
      const std::string text = to_uci(m, chess960_);
      moves.append(nb::steal(PyUnicode_FromStringAndSize(text.data(), Py_ssize_t(text.size()))));
    };
    if (position_.side_to_move == WHITE) for_each_listed_move<WHITE>(position_, add);
    else for_each_listed_move<BLACK>(position_, add);
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
  Position position_{};
  bool chess960_ = false;
};

}  // namespace

void bind_position(nb::module_& m) {
  nb::class_<PyPosition>(m, "Position",
                         "A chess position: legal moves, check and mate, and perft. Position('startpos') or\n"
                         "Position(fen); a FEN with 4 to 6 fields, X-FEN or Shredder-FEN castling for Chess960.")
      .def(nb::init<const std::string&>(), nb::arg("fen") = "startpos")
      .def("legal_moves", &PyPosition::legal_moves, "The legal moves, as UCI strings.")
      .def("push", &PyPosition::push, nb::arg("uci"), "Plays a legal move given in UCI; ValueError if it is not legal.")
      .def("fen", &PyPosition::fen, "The position as a 6-field FEN.")
      .def("is_check", &PyPosition::is_check, "Whether the side to move is in check.")
      .def("is_checkmate", &PyPosition::is_checkmate, "Whether the side to move is checkmated.")
      .def("is_stalemate", &PyPosition::is_stalemate, "Whether the side to move has no legal move and is not in check.")
      .def("is_insufficient_material", &PyPosition::is_insufficient_material,
           "Whether neither side can mate on material alone.")
      .def("perft", &PyPosition::perft, nb::arg("depth"), "Leaf nodes depth plies deep, on one thread.")
      .def(nb::self == nb::self)
      .def("__repr__", [](const PyPosition& p) { return "Position('" + p.fen() + "')"; });
}

}  // namespace perftkit::python
