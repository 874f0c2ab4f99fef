// The core's two recursive counters, perft() and perft_stats(), compiled once for the whole
// test binary (perft_instances.cpp) rather than in every test unit that calls them. Each
// pulls in the whole move generator: test_stats.cpp alone took 96 s under ASan when it
// instantiated them itself. Include this in a test unit that calls either; the calls are the
// same, only where the code is generated changes. Test-only: the public headers stay
// self-contained, so a consumer of the header-only core needs no library.
#pragma once

#include <cstdint>

#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"

namespace perftkit {

extern template std::uint64_t perft<WHITE>(const Position&, int);
extern template std::uint64_t perft<BLACK>(const Position&, int);
extern template void perft_stats<WHITE>(const Position&, int, LeafStats&, bool);
extern template void perft_stats<BLACK>(const Position&, int, LeafStats&, bool);

}  // namespace perftkit
