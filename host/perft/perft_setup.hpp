// What a perft sets up from its arguments, the same for the CLI and the Python module: the
// root position after the given moves, and the size of the default table.
#pragma once

#include <cstddef>
#include <optional>
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

// MiB of table for req, given the MiB asked for (nullopt: none named). 0 when req uses no
// table. When none is asked for: what its depth needs (hash_sizing.hpp), at most a quarter of
// the available memory (of the device's free memory on a GPU). When more is asked than the
// CPU core's table can fill (it stores one entry per distinct subtree), what it can fill:
// more only costs page faults (a 4 GiB table at perft 8 took 60% longer than the default).
// The pipeline's and the GPUs' tables get what is asked.
std::size_t hash_table_mb(const PerftRequest& req, std::optional<std::size_t> asked);

}  // namespace perftkit
