// The CPU backend's statistics (the recursive core's leaf counters), in a translation unit of
// its own.
#include "perft/driver_jobs.hpp"
#include "perft/cpu_kernels.hpp"

namespace perftkit::driver {
namespace {

// Statistics on the CPU of a job (any depth below its nodes): each unit counts in 64 bits,
// totals are 128-bit. With a hash size, every unit counts through one statistics table,
// shared by the threads: `kept`, made on first use, or one for this count alone.
std::vector<StatsTotals> perft_stats_cpu(FrontierJob job, const PerftRequest& req, std::size_t root_move_count,
                                         std::unique_ptr<StatsTable>* kept, StatsTableUse& use) {
  const unsigned threads = thread_count(req);
  deepen(job, cpu_units(req, threads), 2, threads);
  const int remaining = job.remaining;
  if (req.hash_bytes) {
    std::unique_ptr<StatsTable> own;
    std::unique_ptr<StatsTable>& held = kept ? *kept : own;
    if (!held) held = std::make_unique<StatsTable>(req.hash_bytes, threads);
    StatsTable& table = *held;
    const KeySet keys(req.hash_seed);
    const auto count = cpu_kernels().perft_stats_hashed;
    std::vector<StatsTotals> per_root_move = count_frontier<StatsTotals>(
        job.nodes, threads, root_move_count,
        [&](const FrontierNode& node, std::vector<StatsTotals>& totals) {
          LeafStats unit{};
          StatsTableUse unit_use;
          count(node.position, remaining, table, keys, unit, unit_use);
          table.record(unit_use);
          totals[node.root_move].add(unit, node.multiplicity);
        },
        req.progress);
    use = table.use();
    return per_root_move;
  }
  const auto count = cpu_kernels().perft_stats;
  return count_frontier<StatsTotals>(
      job.nodes, threads, root_move_count,
      [remaining, count](const FrontierNode& node, std::vector<StatsTotals>& totals) {
        LeafStats unit{};
        count(node.position, remaining, unit);
        totals[node.root_move].add(unit, node.multiplicity);
      },
      req.progress);
}

}  // namespace

std::vector<StatsTotals> root_move_stats(const PerftRequest& req, const std::vector<Move>& moves, StatsTableUse& use) {
  std::vector<StatsTotals> totals(moves.size());
  if (req.depth == 1) {
    for (std::size_t m = 0; m < moves.size(); ++m) totals[m].add(move_stats(req.root, moves[m]), 1);
    return totals;
  }
  return perft_stats_cpu(root_job(req), req, moves.size(), nullptr, use);
}

StatsTotals count_stats_cpu(FrontierJob job, const PerftRequest& req, std::unique_ptr<StatsTable>& table) {
  StatsTableUse use;
  return perft_stats_cpu(std::move(job), req, 1, &table, use)[0];
}

}  // namespace perftkit::driver
