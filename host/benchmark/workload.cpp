#include "benchmark/workload.hpp"

#include <stdexcept>
#include <string_view>

#include "notation/fen.hpp"
#include "notation/suite.hpp"

namespace perftkit {
namespace {

struct PublishedPosition {
  const char* name;
  const char* fen;
  std::vector<u128> counts;  // perft 1, 2, ... as published
};

// Published counts (Chess Programming Wiki "Perft Results" and the engines that confirmed
// the deeper ones); facts, so a benchmark can check its own answer at every depth offset.
const std::vector<PublishedPosition>& published_positions() {
  static const std::vector<PublishedPosition> positions = {
      {"start",
       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       {20, 400, 8902, 197281, 4865609, 119060324, 3195901860, 84998978956, 2439530234167}},
      {"kiwipete",
       "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
       {48, 2039, 97862, 4085603, 193690690, 8031647685, 374190009323, 15493944087984}},
      {"position3",
       "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
       {14, 191, 2812, 43238, 674624, 11030083, 178633661, 3009794393, 50086749815}},
      {"position4",
       "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
       {6, 264, 9467, 422333, 15833292, 706045033, 27209691363, 1209257875296}},
      {"position5",
       "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
       {44, 1486, 62379, 2103487, 89941194, 3048196529, 131724123591}},
      {"position6",
       "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
       {46, 2079, 89890, 3894594, 164075551, 6923051137, 287188994746, 11923589843526}},
  };
  return positions;
}

}  // namespace

std::vector<BenchCase> bench_workload(int depth_offset) {
  const std::vector<PublishedPosition>& positions = published_positions();
  std::vector<BenchCase> workload;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const PublishedPosition& p = positions[i];
    const int depth = BENCH_DEPTHS[i] + depth_offset;
    if (depth < 1 || depth > static_cast<int>(p.counts.size()))
      throw std::invalid_argument("--depth-offset " + std::to_string(depth_offset) + ": no published count for " +
                                  p.name + " at depth " + std::to_string(depth) + " (offsets " +
                                  std::to_string(BENCH_MIN_DEPTH_OFFSET) + ".." +
                                  std::to_string(BENCH_MAX_DEPTH_OFFSET) + " are covered)");
    const FenResult parsed = parse_fen(p.fen);
    if (!parsed) throw std::logic_error(std::string("bench workload FEN: ") + parsed.error);
    workload.push_back({p.name, p.fen, parsed->position, depth, p.counts[static_cast<std::size_t>(depth - 1)]});
  }
  return workload;
}

u128 bench_signature(const std::vector<BenchCase>& workload) {
  u128 sum = 0;
  for (const BenchCase& c : workload) sum += c.expected;
  return sum;
}

u128 published_count(const std::string& name, int depth) {
  for (const PublishedPosition& p : published_positions())
    if (name == p.name && depth >= 1 && depth <= static_cast<int>(p.counts.size()))
      return p.counts[static_cast<std::size_t>(depth - 1)];
  return 0;
}

std::vector<BenchCase> suite_workload(const std::vector<std::string>& files, u128 max_nodes, int max_depth) {
  std::vector<BenchCase> workload;
  for (const std::string& file : files) {
    const SuiteFileResult suite = read_suite(file);
    if (!suite) throw std::invalid_argument("--suite " + file + ": " + suite.error);
    if (!suite->errors.empty()) throw std::invalid_argument(suite->errors[0].source + ": " + suite->errors[0].reason);
    for (const SuiteCase& c : suite->cases) {
      const FenResult parsed = c.from_epd_line ? parse_epd(c.fen) : parse_fen(c.fen);
      if (!parsed) throw std::invalid_argument(c.source + ": " + parsed.error);
      for (const ExpectedCount& e : c.expected)
        if (e.nodes <= max_nodes && e.depth <= max_depth)
          workload.push_back({c.source + " D" + std::to_string(e.depth), c.fen, parsed->position, e.depth, e.nodes});
    }
  }
  return workload;
}

}  // namespace perftkit
