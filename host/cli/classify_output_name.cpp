#include "cli/classify_output_name.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <utility>

#include "common/errors.hpp"

namespace perftkit {

RowFormat classify_output_format(const std::string& output, std::optional<RowFormat> asked) {
  if (output.empty() || output == "-") return asked.value_or(RowFormat::CSV);
  std::string lower = output;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  const std::string_view name = lower;
  if (name.ends_with(".parquet"))
    throw UsageError("-o " + output +
                     ": perftkit writes CSV, TSV or JSON Lines; for Parquet use the Python module's Arrow batches: "
                     "pyarrow.parquet.write_table(pyarrow.Table.from_batches(list(perftkit.classify_file(INPUT))), "
                     "\"" +
                     output + "\")");
  constexpr std::pair<std::string_view, std::string_view> COMPRESSED[] = {
      {".gz", "gzip"}, {".zst", "zstd"}, {".bz2", "bzip2"}, {".xz", "xz"}};
  for (const auto& [extension, compressor] : COMPRESSED)
    if (name.ends_with(extension))
      throw UsageError("-o " + output + ": rows are written uncompressed; pipe them to the compressor instead: " +
                       "perftkit classify ... | " + std::string(compressor) + " > " + output);
  if (asked) return *asked;
  if (name.ends_with(".tsv")) return RowFormat::TSV;
  if (name.ends_with(".jsonl")) return RowFormat::JSONL;
  return RowFormat::CSV;
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
