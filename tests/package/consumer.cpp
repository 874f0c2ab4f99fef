// Uses the installed package: perft of Kiwipete through the core (perftkit::core), a FEN read
// and a position classified through the host library (perftkit::host).
#include <cstdio>
#include <string>

#include "classify/format.hpp"
#include "notation/fen.hpp"
#include "perftkit/classify.hpp"
#include "perftkit/perft.hpp"

int main() {
  const perftkit::FenResult kiwipete =
      perftkit::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const perftkit::FenResult fools_mate =
      perftkit::parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  if (!kiwipete || !fools_mate) return 1;
  std::printf("kiwipete perft 4: %llu\n", static_cast<unsigned long long>(perftkit::perft(kiwipete->position, 4)));
  const perftkit::Classification c = perftkit::classify(fools_mate->position);
  std::printf("fool's mate: %s, winner %s\n", std::string(perftkit::termination_name(c.termination)).c_str(),
              std::string(perftkit::winner_name(c)).c_str());
  return 0;
}
