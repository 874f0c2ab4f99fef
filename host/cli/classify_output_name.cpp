#include "cli/classify_output_name.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <utility>

#include "common/errors.hpp"
#include "common/frame_encoder.hpp"

namespace perftkit {

ClassifyOutputKind classify_output_kind(const std::string& output, std::optional<RowFormat> asked) {
  if (output.empty() || output == "-") return {asked.value_or(RowFormat::CSV), Compression::NONE};
  std::string lower = output;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  std::string_view name = lower;
  if (name.ends_with(".parquet"))
    throw UsageError("-o " + output +
                     ": perftkit writes CSV, TSV or JSON Lines; for Parquet use the Python module's Arrow batches: "
                     "pyarrow.parquet.write_table(pyarrow.Table.from_batches(list(perftkit.classify_file(INPUT))), "
                     "\"" +
                     output + "\")");
  constexpr std::pair<std::string_view, std::string_view> NOT_WRITTEN[] = {{".bz2", "bzip2"}, {".xz", "xz"}};
  for (const auto& [extension, compressor] : NOT_WRITTEN)
    if (name.ends_with(extension))
      throw UsageError("-o " + output + ": perftkit writes .gz and .zst; for " + std::string(compressor) +
                       ", pipe the rows to it: perftkit classify ... | " + std::string(compressor) + " > " + output);
  ClassifyOutputKind kind;
  constexpr std::pair<std::string_view, Compression> COMPRESSED[] = {{".gz", Compression::GZIP},
                                                                     {".zst", Compression::ZSTD}};
  for (const auto& [extension, compression] : COMPRESSED)
    if (name.ends_with(extension)) {
      if (!can_compress(compression))
        throw UsageError("-o " + output + ": this perftkit was built without the " +
                         std::string(compression == Compression::GZIP ? "zlib" : "zstd") +
                         " library; pipe the rows to the compressor instead");
      kind.compression = compression;
      name.remove_suffix(extension.size());
    }
  if (asked) kind.format = *asked;
  else if (name.ends_with(".tsv")) kind.format = RowFormat::TSV;
  else if (name.ends_with(".jsonl")) kind.format = RowFormat::JSONL;
  return kind;
}

void refuse_output_over_input(const std::string& output, const std::vector<std::string>& inputs) {
  if (output.empty() || output == "-") return;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (input != "-" && std::filesystem::equivalent(input, output, ec))
      throw UsageError("-o " + output + " is the input file " + input + "; write the rows to another file");
  }
}

}  // namespace perftkit
