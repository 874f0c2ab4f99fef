#include "cli/classify_command.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "classify/input.hpp"
#include "classify/stream.hpp"
#include "classify/stream_choices.hpp"
#include "common/thread_count.hpp"
#include "classify/progress.hpp"
#include "cli/classify_output_name.hpp"
#include "common/compressing_pipe.hpp"
#include "cli/cli_common.hpp"
#include "common/output_file.hpp"
#include "notation/quoted_text.hpp"

namespace perftkit {
namespace {

struct ClassifyOptions {
  std::vector<std::string> files;
  std::string output;
  RowFormat format = RowFormat::CSV;
  bool format_given = false;  // --format was given: it overrides -o's extension
  bool positions_given = false;
  InputKind input = InputKind::AUTO;
  PgnPositions positions = PgnPositions::ALL;
  std::vector<std::string> only;           // --only: facts a written row must have one of
  std::vector<std::string> columns, tags;  // PGN game columns
  std::string fen_column;                  // tables
  std::vector<std::string> keep_columns;
  bool game_over = false;
  bool summary = false;
  std::string summary_json;
  bool strict = false;
  bool no_header = false;
  unsigned threads = 0;
  Backend backend = Backend::AUTO;
  bool progress = false;
};

// The classifier of each worker: none (each position classified as it is parsed, on the
// CPU) unless --backend cuda, which gives worker k a batch classifier on GPU k mod the device
// count, or --backend pipeline, the same batched path with the CPU twin of the kernel. auto
// stays on the CPU: parsing and writing dominate a row's cost, and only the classification
// itself would move to the GPU.
BatchClassifierFactory batch_classifier(Backend backend) {
  if (backend == Backend::PIPELINE) return [](unsigned) { return make_cpu_batch_classifier(); };
  if (backend != Backend::CUDA) return {};
  return gpu_batch_classifiers();
}

// Options for one kind of input are refused, before anything is written, when no input is
// of that kind: --keep-columns and --fen-column (--fen-field) for CSV, TSV and JSON Lines;
// --tags, --columns and --positions for PGN.
void refuse_inapplicable_options(const ClassifyOptions& opt, const std::vector<ClassifyInput>& inputs,
                                 const std::vector<InputKind>& kinds) {
  const auto any_of_kind = [&](std::initializer_list<InputKind> wanted) {
    for (const InputKind kind : kinds)
      if (std::find(wanted.begin(), wanted.end(), kind) != wanted.end()) return true;
    return false;
  };
  const auto what_was_given = [&] {
    std::string text;
    for (std::size_t i = 0; i < inputs.size() && i < 3; ++i)
      text += (i ? ", " : "") + quoted_text(inputs[i].name()) + " is " + input_kind_label(kinds[i]);
    return text + (inputs.size() > 3 ? ", ..." : "");
  };
  const bool tables = any_of_kind({InputKind::CSV, InputKind::TSV, InputKind::JSONL});
  const bool games = any_of_kind({InputKind::PGN});
  const auto refuse = [&](const char* option, const char* applies_to) {
    throw UsageError(std::string(option) + " applies to " + applies_to + " input; " + what_was_given() +
                     " (--input names the kind)");
  };
  if (!opt.keep_columns.empty() && !tables) refuse("--keep-columns", "CSV, TSV and JSON Lines");
  if (!opt.fen_column.empty() && !tables) refuse("--fen-column", "CSV, TSV and JSON Lines");
  if (!opt.tags.empty() && !games) refuse("--tags", "PGN");
  if (!opt.columns.empty() && !games) refuse("--columns", "PGN");
  if (opt.positions_given && !games) refuse("--positions", "PGN");
}

void write_summary_file(const std::string& path, bool rows_on_stdout, const ClassifySummary& s, double seconds) {
  if (path == "-") {
    if (rows_on_stdout) throw UsageError("--summary-json -: the rows go to stdout; give -o FILE for them");
    write_summary_json(std::cout, s, seconds);
    std::cout.flush();
    return;
  }
  std::ofstream out(path);
  if (!out) throw UsageError("cannot write '" + path + "'");
  write_summary_json(out, s, seconds);
  if (!out.flush()) throw RuntimeFailure("cannot write '" + path + "': " + std::strerror(errno));
}

// The items of comma-separated lists given once or several times ("a,b" "c" gives a, b, c):
// one argument per option (the words of a list were joined by join_list_words), so that a
// file name after the list is never taken for an item.
std::vector<std::string> comma_items(const std::vector<std::string>& lists) {
  std::vector<std::string> items;
  for (const std::string& list : lists) {
    std::size_t begin = 0;
    for (;;) {
      const std::size_t comma = list.find(',', begin);
      items.push_back(list.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
  }
  return items;
}

int run(const ClassifyOptions& opt) {
  const bool rows_on_stdout = opt.output.empty() || opt.output == "-";
  const ClassifyOutputKind output_kind =
      classify_output_kind(opt.output, opt.format_given ? std::optional<RowFormat>(opt.format) : std::nullopt);
  const RowFormat format = output_kind.format;
  refuse_output_over_input(opt.output, opt.files);
  if (opt.summary_json == "-" && rows_on_stdout)
    throw UsageError("--summary-json -: the rows go to stdout; give -o FILE for them");
  std::vector<ClassifyInput> inputs;
  if (opt.files.empty()) inputs.emplace_back("-");
  for (const std::string& file : opt.files) inputs.emplace_back(file);
  std::uint64_t total_bytes = 0;
  for (const ClassifyInput& input : inputs) total_bytes = input.size() ? total_bytes + input.size() : 0;

  ClassifyStreamOptions pipeline;
  pipeline.kind = opt.input;
  pipeline.format = format;
  pipeline.positions = opt.positions;
  pipeline.threads = threads_or_all_cores(opt.threads);
  pipeline.header = !opt.no_header;
  pipeline.batch_classifier = batch_classifier(opt.backend);
  ClassifyChoices choices;
  choices.only = comma_items(opt.only);
  choices.game_over = opt.game_over;
  choices.columns = comma_items(opt.columns);
  choices.tags = comma_items(opt.tags);
  choices.fen_column = opt.fen_column;
  choices.keep_columns = comma_items(opt.keep_columns);
  apply_classify_choices(choices, pipeline);

  OutputFile output(opt.output);
  // --summary on a terminal asks for the counts: millions of rows scrolling past them would
  // bury them. The rows go nowhere, and a line says how to get them.
  const bool rows_to_terminal = output.is_stdout() && ::isatty(STDOUT_FILENO) != 0;
  const bool rows_dropped = rows_to_terminal && (opt.summary || !opt.summary_json.empty());
  const int null_fd = rows_dropped ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
  if (rows_dropped && null_fd < 0) throw RuntimeFailure(std::string("cannot open /dev/null: ") + std::strerror(errno));
  // (After the output's partial file is made: deciding a pipe's kind waits for its first bytes.)
  for (ClassifyInput& input : inputs) pipeline.kinds.push_back(decide_input_kind(input, opt.input));
  refuse_inapplicable_options(opt, inputs, pipeline.kinds);
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  std::unique_ptr<ProgressMeter> meter;
  if (terminal || opt.progress) meter = std::make_unique<ProgressMeter>(total_bytes, terminal);
  std::uint64_t last_rows = 0, last_bytes = 0;
  const ClassifyStreamProgress progress = [&](std::uint64_t rows, std::uint64_t bytes) {
    last_rows = rows;
    last_bytes = bytes;
    if (meter) meter->update(rows, bytes);
  };

  const auto start = std::chrono::steady_clock::now();
  // Rows of a damaged stream or of --strict rejections are whole rows, kept (exit 1).
  // -o NAME.gz or NAME.zst: the rows pass through a compressing thread on their way out.
  std::optional<CompressingPipe> compressor;
  if (output_kind.compression != Compression::NONE)
    compressor.emplace(output_kind.compression, output.fd(), opt.output);
  const ClassifyStreamResult result = run_classify_stream(inputs, pipeline,
                                                          rows_dropped ? null_fd
                                                          : compressor ? compressor->fd()
                                                                       : output.fd(),
                                                          progress);
  if (compressor) compressor->finish();
  if (null_fd >= 0) ::close(null_fd);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  output.commit();
  if (meter) meter->finish(last_rows, last_bytes);

  if (rows_dropped)
    std::fprintf(stderr,
                 "classify: %llu rows not shown: --summary on a terminal gives the counts (-o FILE or a pipe "
                 "gives the rows)\n",
                 static_cast<unsigned long long>(result.summary.rows));
  if (opt.summary) print_summary_text(stderr, result.summary, seconds);
  if (!opt.summary_json.empty()) write_summary_file(opt.summary_json, rows_on_stdout, result.summary, seconds);
  if (result.rejected > 0)
    std::fprintf(stderr, "classify: %llu of %llu rows rejected (see the error column)\n",
                 static_cast<unsigned long long>(result.rejected),
                 static_cast<unsigned long long>(result.summary.rows));
  // A damaged compressed stream: its complete records were written; exit 1 says the input was cut.
  bool damaged = false;
  for (const ClassifyInput& input : inputs)
    if (const std::optional<std::string> damage = input.damage()) {
      std::fprintf(stderr, "perftkit: error: %s; every complete record before it was classified and written\n",
                   damage->c_str());
      damaged = true;
    }
  return damaged || (opt.strict && result.rejected > 0) ? EXIT_CHECK_FAILED : EXIT_OK;
}

}  // namespace

void add_classify_command(CLI::App& app, int& exit_code) {
  auto opt = std::make_shared<ClassifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "classify", "Classify positions in bulk (FEN/EPD lines, PGN games): legal moves, check, mate, draws");
  cmd->add_option("files", opt->files, "Input files: FEN/EPD lines or PGN ('-' or none: standard input)");
  cmd->add_option("-o,--output", opt->output, "Write the rows to FILE instead of standard output")->option_text("FILE");
  const std::map<std::string, RowFormat> formats{
      {"csv", RowFormat::CSV}, {"tsv", RowFormat::TSV}, {"jsonl", RowFormat::JSONL}};
  CLI::Option* format =
      cmd->add_option("--format", opt->format, "Row format: csv | tsv | jsonl (default: -o's extension, else csv)")
          ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case))
          ->option_text("csv|tsv|jsonl");
  cmd->add_option("--input", opt->input,
                  "Input kind: auto (by name and first bytes) | fen | epd | pgn | csv | tsv | jsonl")
      ->transform(CLI::CheckedTransformer(input_kind_names(), CLI::ignore_case))
      ->option_text("auto|fen|epd|pgn|csv|tsv|jsonl (auto)");
  CLI::Option* positions =
      cmd->add_option("--positions", opt->positions, "PGN: a row for every position of a game, or the final one only")
          ->transform(CLI::CheckedTransformer(pgn_positions_names(), CLI::ignore_case))
          ->option_text("all|final (all)");
  cmd->add_option("--only", opt->only,
                  "Write only the rows with any of these facts (separated by commas or spaces): " + RowFilter::names() +
                      "; --summary still counts every row")
      ->allow_extra_args(false)
      ->option_text("FACT ...");
  cmd->add_option("--fen-column", opt->fen_column,
                  "CSV/TSV: the FEN's column, by header name or 1-based number; JSONL: its key (default: fen)");
  cmd->add_option("--fen-field", opt->fen_column, "JSONL: the FEN's key (the same as --fen-column)");
  cmd->add_option(
         "--keep-columns", opt->keep_columns,
         "CSV/TSV/JSONL: input columns (names or numbers, separated by commas or spaces) carried over after the "
         "classification's; a word naming a file ends the list")
      ->allow_extra_args(false)
      ->option_text("NAME ...");
  cmd->add_option(
         "--columns", opt->columns,
         "PGN game columns after the classification's (separated by commas or spaces): " + GameColumns::names())
      ->allow_extra_args(false)
      ->option_text("COLUMN ...");
  cmd->add_option(
         "--tags", opt->tags,
         "PGN tags as columns (names separated by commas or spaces: White Black WhiteElo ...), or all (one JSON "
         "`tags` column); a word naming a file ends the list")
      ->allow_extra_args(false)
      ->option_text("TAG ...|all");
  cmd->add_flag("--game-over", opt->game_over,
                "Write only the rows where the game is over by rule (same as --only game_over)");
  cmd->add_flag("--summary", opt->summary, "Print aggregate counts (the draw statistics) on stderr");
  cmd->add_option("--summary-json", opt->summary_json, "Write aggregate counts as JSON to FILE ('-': stdout)")
      ->option_text("FILE");
  cmd->add_flag("--strict", opt->strict, "Exit with 1 when any row is rejected");
  cmd->add_flag("--no-header", opt->no_header, "Leave out the CSV/TSV header line");
  cmd->add_option("-t,--threads", opt->threads, "Worker threads (default, or 0: all cores)")
      ->check(CLI::Range(0u, 4096u));
  cmd->add_option("--backend", opt->backend,
                  "auto | cpu | cuda (each block's positions classified in one batch on a GPU) | pipeline (that "
                  "batched path on the CPU)")
      ->transform(CLI::CheckedTransformer(BACKEND_NAMES, CLI::ignore_case))
      ->option_text("auto|cpu|cuda|pipeline (auto)");
  cmd->add_flag("--progress", opt->progress, "Show progress on stderr even when it is not a terminal");
  cmd->callback([opt, format, positions, &exit_code] {
    opt->format_given = format->count() > 0;
    opt->positions_given = positions->count() > 0;
    exit_code = run(*opt);
  });
}

}  // namespace perftkit
