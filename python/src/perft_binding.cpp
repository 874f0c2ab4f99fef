// perftkit.perft: the CLI's `perft` as a function, returning exact Python ints.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "common/errors.hpp"
#include "common/thread_count.hpp"
#include "interruptible.hpp"
#include "perft/perft_setup.hpp"
#include "pipeline/stats_totals.hpp"

namespace nb = nanobind;

namespace perftkit::python {

Backend backend_named(const std::string& name) {
  if (name == "auto") return Backend::AUTO;
  if (name == "cpu") return Backend::CPU;
  if (name == "cuda") return Backend::CUDA;
  if (name == "pipeline") return Backend::PIPELINE;
  throw UsageError("backend: '" + name + "' is not one of auto, cpu, cuda, pipeline");
}

namespace {

// The counters of a statistics run, under the names of the CLI's JSON output.
nb::dict stats_dict(const StatsTotals& totals) {
  nb::dict counters;
  for (int f = 0; f < STAT_FIELD_NB; ++f)
    counters[nb::str(std::string(stat_json_name(StatField(f))).c_str())] = to_python_int(totals.count[f]);
  // Checks and mates by origin, as the CLI's JSON nests them (mates apart from checks).
  const ChecksByOrigin split = checks_by_origin(totals);
  nb::dict by_origin;
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o)
    by_origin[nb::str(std::string(check_origin_name(CheckOrigin(o))).c_str())] = to_python_int(split.checks[o]);
  for (int o = 0; o < CHECK_ORIGIN_NB; ++o)
    by_origin[nb::str((std::string(check_origin_name(CheckOrigin(o))) + "_mates").c_str())] =
        to_python_int(split.mates[o]);
  counters["checks_by_origin"] = by_origin;
  return counters;
}

nb::object perft(const std::string& fen, std::optional<int> depth, const std::vector<std::string>& moves, bool divide,
                 bool stats, const std::string& backend, std::optional<unsigned> threads,
                 std::optional<std::size_t> hash_mb, bool chess960) {
  if (!depth) throw nb::type_error("perft() needs a depth: perft(fen, depth)");
  if (*depth < 0) throw UsageError("depth: must be at least 0, not " + std::to_string(*depth));
  const ParsedPosition root = perft_root(fen, moves);
  PerftRequest req;
  req.root = root.position;
  req.depth = *depth;
  req.divide = divide;
  req.threads = threads_or_all_cores(threads.value_or(0));
  req.backend = backend_named(backend);
  req.chess960 = chess960 || root.chess960;
  req.stats = stats;
  req.hash_bytes = hash_table_mb(req, hash_mb) << 20;

  const PerftReport report = run_interruptibly([req] {
    try {
      return run_perft(req);
    } catch (const Cancelled&) {
      throw;
    } catch (const std::runtime_error& e) {  // a backend that cannot run here
      throw UsageError(e.what());
    }
  });

  if (divide) {
    nb::dict by_move;
    for (const DivideEntry& entry : report.divide)
      by_move[nb::str(entry.uci.c_str())] = stats ? nb::object(stats_dict(entry.stats)) : to_python_int(entry.nodes);
    return by_move;
  }
  if (stats) return stats_dict(report.stats);
  return to_python_int(report.nodes);
}

}  // namespace

void bind_perft(nb::module_& m) {
  m.def("perft", &perft,
        nb::sig("def perft(fen: str = 'startpos', depth: int | None = None, *, moves: collections.abc.Sequence[str] = "
                "(), divide: bool = False, stats: bool = False, backend: str = 'auto', threads: int | None = None, "
                "hash_mb: int | None = None, chess960: bool = False) -> int | dict[str, int] | dict[str, dict[str, "
                "int]]"),
        nb::arg("fen") = "startpos", nb::arg("depth") = nb::none(), nb::kw_only(),
        nb::arg("moves") = std::vector<std::string>{}, nb::arg("divide") = false, nb::arg("stats") = false,
        nb::arg("backend") = "auto", nb::arg("threads") = nb::none(), nb::arg("hash_mb") = nb::none(),
        nb::arg("chess960") = false,
        "Counts the leaf nodes of the legal-move tree of fen (a FEN, a 4-field EPD position or\n"
        "'startpos'), after the UCI moves, depth plies deep: an exact int.\n\n"
        "divide=True gives a dict of root move (UCI) to count; stats=True gives the CLI's counters\n"
        "(captures, checks, mates, ...) as a dict, or per root move with divide. backend is\n"
        "'auto', 'cpu', 'cuda' or 'pipeline'; threads defaults to every core; hash_mb to what the\n"
        "depth needs (0 turns the table off). chess960 writes castling as king-takes-rook.\n"
        "Runs without the GIL; Ctrl-C stops it. Bad input raises ValueError.");
}

}  // namespace perftkit::python
