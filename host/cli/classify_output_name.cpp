#include "cli/classify_output_name.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <utility>

#include "common/errors.hpp"

namespace perftkit {
namespace {

bool ends_with(const std::string& lower_name, std::string_view suffix) {
  return std::string_view(lower_name).ends_with(suffix);
}

}  // namespace

RowFormat classify_output_format(const std::string& output, std::optional<RowFormat> asked) {
  if (output.empty() || output == "-") return asked.value_or(RowFormat::CSV);
  std::string name = output;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ends_with(name, ".parquet"))
    throw UsageError("-o " + output +
                     ": perftkit writes CSV, TSV or JSON Lines; for Parquet use the Python module's Arrow batches: "
                     "pyarrow.parquet.write_table(pyarrow.Table.from_batches(list(perftkit.classify_file(INPUT))), "
                     "\"" +
                     output + "\")");
  constexpr std::pair<std::string_view, std::string_view> COMPRESSED[] = {
      {".gz", "gzip"}, {".zst", "zstd"}, {".bz2", "bzip2"}, {".xz", "xz"}};
  for (const auto& [extension, compressor] : COMPRESSED)
    if (ends_with(name, extension))
      throw UsageError("-o " + output + ": rows are written uncompressed; pipe them to the compressor instead: " +
                       "perftkit classify ... | " + std::string(compressor) + " > " + output);
  if (asked) return *asked;
  if (ends_with(name, ".tsv")) return RowFormat::TSV;
  if (ends_with(name, ".jsonl")) return RowFormat::JSONL;
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
