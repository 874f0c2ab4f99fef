// The one instantiation of perft() and perft_stats() for the test binary (perft_instances.hpp).
#include "support/perft_instances.hpp"

namespace perftkit {

template std::uint64_t perft<WHITE>(const Position&, int);
template std::uint64_t perft<BLACK>(const Position&, int);
template void perft_stats<WHITE>(const Position&, int, LeafStats&, bool);
template void perft_stats<BLACK>(const Position&, int, LeafStats&, bool);

}  // namespace perftkit
