// The row format that classify's -o FILE names, and the outputs it refuses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "classify/format.hpp"
#include "common/frame_decoder.hpp"

namespace perftkit {

struct ClassifyOutputKind {
  RowFormat format = RowFormat::CSV;
  Compression compression = Compression::NONE;
};

// What the rows written to `output` ("" or "-": standard output, plain) are, by its name: a
// last extension .gz or .zst compresses them with gzip or zstd, and the extension before it
// (or the last one) picks the format: .csv, .tsv or .jsonl, in any case, else CSV; `asked`
// (--format) overrides the format. Throws UsageError for a name whose content it would not
// be: .bz2 and .xz (not written here), .parquet (the Python module writes Arrow batches), or
// a compression this build lacks the library for.
ClassifyOutputKind classify_output_kind(const std::string& output, std::optional<RowFormat> asked);

// Throws UsageError when `output` is one of the input files (the same file, by any path).
void refuse_output_over_input(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace perftkit
