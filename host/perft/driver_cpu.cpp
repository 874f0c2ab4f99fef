// The CPU backend's node counts (the recursive core, hashed or not), in a translation unit of
// its own.
#include "perft/cpu_kernels.hpp"
#include "perft/driver_jobs.hpp"
#include "perft/hashed_perft.hpp"

namespace perftkit::driver {

RootTotals count_cpu(FrontierJob job, const PerftRequest& req, std::unique_ptr<PerftTable>& table,
                     std::size_t root_move_count) {
  const unsigned threads = thread_count(req);
  deepen(job, cpu_units(req, threads), 2, threads);
  const int remaining = job.remaining;
  if (req.hash_bytes && remaining > 1) {
    if (!table) table = std::make_unique<PerftTable>(req.hash_bytes, threads);
    PerftTable& shared = *table;
    const KeySet keys(req.hash_seed);
    return count_frontier<u128>(
        job.nodes, threads, root_move_count,
        [&](const FrontierNode& node, RootTotals& totals) {
          totals[node.root_move] += u128(perft_hashed(node.position, remaining, shared, keys)) * node.multiplicity;
        },
        req.progress);
  }
  const auto count = cpu_kernels().perft;
  return count_frontier<u128>(
      job.nodes, threads, root_move_count,
      [remaining, count](const FrontierNode& node, RootTotals& totals) {
        totals[node.root_move] += u128(count(node.position, remaining)) * node.multiplicity;
      },
      req.progress);
}

}  // namespace perftkit::driver
