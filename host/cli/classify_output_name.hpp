// The row format that classify's -o FILE names, and the outputs it refuses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "classify/format.hpp"

namespace perftkit {

// The format of the rows written to `output` ("" or "-": standard output): `asked` (--format)
// when given, else the name's extension (.csv, .tsv, .jsonl, in any case), else CSV. Throws
// UsageError for a name whose content it would not be: a compressed extension (.gz, .zst,
// .bz2, .xz: rows are written plain) or .parquet (the Python module writes Arrow batches).
RowFormat classify_output_format(const std::string& output, std::optional<RowFormat> asked);

// Throws UsageError when `output` is one of the input files (the same file, by any path).
void refuse_output_over_input(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace perftkit
