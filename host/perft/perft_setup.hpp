// What a perft sets up from its arguments, the same for the CLI and the Python module: the
// root position after the given moves, and the size of the default table.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "notation/fen.hpp"
#include "perft/driver.hpp"

namespace perftkit {

// fen (a FEN, a 4-field EPD position or "startpos") after the UCI moves (each string may hold
// several, space-separated). Throws UsageError naming the bad FEN field, or the first move
// that is not legal and the position it was played in.
ParsedPosition perft_root(std::string_view fen, const std::vector<std::string>& moves);

// MiB of table for req when none is asked for: what its depth needs (hash_sizing.hpp), at
// most a quarter of the available memory (of the device's free memory on a GPU).
std::size_t default_hash_mb(const PerftRequest& req);

// MiB of table for req when `asked` MiB are given. The CPU core's table stores one entry per
// distinct subtree, so it never fills more than the depth has (the default's size when memory
// allows); more only costs page faults (a 4 GiB table at perft 8 took 60% longer than the
// default). On the CPU the table is therefore at most what the depth needs; the pipeline's
// and the GPUs' tables get what is asked.
std::size_t usable_hash_mb(const PerftRequest& req, std::size_t asked);

}  // namespace perftkit
