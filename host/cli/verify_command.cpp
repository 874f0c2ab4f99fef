#include "cli/verify_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <map>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <tuple>

#include "cli/cli_common.hpp"
#include "notation/fen.hpp"
#include "common/json_writer.hpp"
#include "perft/suite_checks.hpp"
#include "common/progress_line.hpp"

namespace perftkit {
namespace {

using Check = SuiteCheck;

enum class FailureKind { MISMATCH, INVALID_FEN, MALFORMED };

struct Failure {
  FailureKind kind = FailureKind::MALFORMED;
  std::size_t file_index = 0;
  std::size_t line = 0;
  std::string source;
  std::string name;
  std::string fen;
  std::string reason;
  int depth = -1;
  u128 expected = 0;
  u128 got = 0;
};

Failure malformed_failure(std::size_t file_index, const SuiteError& e) {
  Failure f;
  f.file_index = file_index;
  f.line = e.line;
  f.source = e.source;
  f.reason = e.reason;
  return f;
}

Failure case_failure(FailureKind kind, std::size_t file_index, const SuiteCase& c) {
  Failure f;
  f.kind = kind;
  f.file_index = file_index;
  f.line = c.line;
  f.source = c.source;
  f.name = c.name;
  f.fen = c.fen;
  return f;
}

Failure invalid_fen_failure(std::size_t file_index, const SuiteCase& c, const std::string& reason) {
  Failure f = case_failure(FailureKind::INVALID_FEN, file_index, c);
  f.reason = reason;
  return f;
}

Failure mismatch_failure(const Check& check, u128 got) {
  Failure f = case_failure(FailureKind::MISMATCH, check.file_index, *check.suite_case);
  f.depth = check.depth;
  f.expected = check.expected;
  f.got = got;
  return f;
}

// The failure as one stdout line: MISMATCH ... for a wrong count, ERROR ... for an unusable case.
std::string failure_line(const Failure& f) {
  switch (f.kind) {
    case FailureKind::MISMATCH:
      return "MISMATCH " + f.source + " depth " + std::to_string(f.depth) + " expected " + to_string_u128(f.expected) +
             " got " + to_string_u128(f.got) + "  " + f.fen;
    case FailureKind::INVALID_FEN: return "ERROR " + f.source + ": invalid FEN: " + f.reason + "  " + f.fen;
    case FailureKind::MALFORMED: break;
  }
  return "ERROR " + f.source + ": " + f.reason;
}

const char* failure_kind_name(FailureKind kind) {
  switch (kind) {
    case FailureKind::MISMATCH: return "mismatch";
    case FailureKind::INVALID_FEN: return "invalid-fen";
    case FailureKind::MALFORMED: break;
  }
  return "malformed";
}

// Where a result belongs in the input: file, line, depth (-1 for a line that has none).
using InputPlace = std::tuple<std::size_t, std::size_t, int>;

InputPlace place_of(const Check& c) { return {c.file_index, c.suite_case->line, c.depth}; }
InputPlace place_of(const Failure& f) { return {f.file_index, f.line, f.depth}; }

// Collects results from every worker thread and draws the progress line. In text mode a
// failure is printed as soon as every check before it in the input has finished, so failures
// appear in input order however the checks were scheduled, and without waiting for the end.
class Reporter final : public SuiteCheckListener {
 public:
  Reporter(const VerifyOptions& options, std::ostream& out, std::ostream& err)
      : options_(options), out_(out), err_(err), progress_(err, options.progress_in_place) {}

  // After the failures found while planning: the checks that will run, and their nodes.
  void set_work(const std::vector<Check>& checks, u128 nodes) {
    const std::lock_guard lock(mutex_);
    total_checks_ = checks.size();
    total_work_ = nodes;
    for (const Check& c : checks) unfinished_.insert(place_of(c));
    planned_ = true;
    print_ready_failures_locked();
  }

  // A failure found before running (malformed line, rejected FEN); it fails `checks` checks.
  void add_failure(Failure f, std::size_t checks) {
    const std::lock_guard lock(mutex_);
    failed_ += checks;
    record(std::move(f));
  }

  void invalid_position(std::size_t file_index, const SuiteCase& c, const std::string& reason,
                        std::size_t depths) override {
    add_failure(invalid_fen_failure(file_index, c, reason), depths);
  }
  void failed(const Check&, const std::string& message) override { fatal(message); }

  void finished(const Check& check, const PerftReport& report) override {
    const std::lock_guard lock(mutex_);
    ++done_checks_;
    done_work_ += check.expected;
    nodes_ += report.nodes;
    backends_.insert(report.backend);
    if (report.nodes == check.expected) {
      ++passed_;
    } else {
      ++failed_;
      record(mismatch_failure(check, report.nodes));  // waits: the check is still unfinished
    }
    unfinished_.erase(unfinished_.find(place_of(check)));
    print_ready_failures_locked();
  }

  // A backend failure: the run stops and exits with EXIT_BAD_INPUT; the first message is kept.
  void fatal(const std::string& message) {
    const std::lock_guard lock(mutex_);
    if (!stopped_.exchange(true)) fatal_message_ = message;
  }

  bool stopped() const override { return stopped_.load(); }

  void draw_progress() {
    const std::lock_guard lock(mutex_);
    if (!progress_.due()) return;
    const double elapsed = seconds();
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3g nodes/s", elapsed > 0 ? double(nodes_) / elapsed : 0.0);
    std::string line =
        "verify: " + std::to_string(done_checks_) + "/" + std::to_string(total_checks_) + " checks, " + rate;
    if (total_work_) line += share_and_eta(double(done_work_) / double(total_work_), elapsed);
    if (failed_) line += ", " + std::to_string(failed_) + " failed";
    progress_.update(line);
  }

  void clear_progress() {
    const std::lock_guard lock(mutex_);
    progress_.clear();
  }

  // Writes the summary (text or JSON) and returns the exit code.
  int finish(std::size_t skipped, unsigned threads) {
    clear_progress();
    const double elapsed = seconds();
    if (stopped()) {
      {
        const std::lock_guard lock(mutex_);
        unfinished_.clear();  // the rest will not run: what failed so far is printed
        print_ready_failures_locked();
      }
      err_ << "perftkit: error: " << fatal_message_ << '\n';
      return EXIT_BAD_INPUT;
    }
    std::sort(failures_.begin(), failures_.end(), [](const Failure& a, const Failure& b) {
      return std::tie(a.file_index, a.line, a.depth) < std::tie(b.file_index, b.line, b.depth);
    });
    if (options_.json) write_json(skipped, threads, elapsed);
    else out_ << passed_ << " passed, " << failed_ << " failed\n" << std::flush;
    if (!options_.quiet) {
      if (skipped) err_ << "skipped " << skipped << " checks over --max-depth/--max-nodes\n";
      char buf[160];
      std::snprintf(buf, sizeof buf, "time %.3f s, %s nodes, %.4g nodes/s (%s, %u thread%s)\n", elapsed,
                    to_string_u128(nodes_).c_str(), elapsed > 0 ? double(nodes_) / elapsed : 0.0,
                    backend_names().c_str(), threads, threads == 1 ? "" : "s");
      err_ << buf << std::flush;
    }
    return failed_ ? EXIT_CHECK_FAILED : EXIT_OK;
  }

 private:
  double seconds() const { return progress_.elapsed_seconds(); }

  void record(Failure f) {
    if (!options_.json) waiting_.emplace(place_of(f), failure_line(f));
    failures_.push_back(std::move(f));
    print_ready_failures_locked();
  }

  // Prints the failures that no unfinished check precedes in the input.
  void print_ready_failures_locked() {
    if (!planned_) return;
    while (!waiting_.empty() && (unfinished_.empty() || waiting_.begin()->first < *unfinished_.begin())) {
      progress_.clear();
      out_ << waiting_.begin()->second << '\n' << std::flush;
      waiting_.erase(waiting_.begin());
    }
  }

  std::string backend_names() const {
    std::string names;
    for (const std::string& b : backends_) names += (names.empty() ? "" : "+") + b;
    return names.empty() ? "none" : names;
  }

  void write_json(std::size_t skipped, unsigned threads, double elapsed) {
    JsonWriter json(out_);
    json.begin_object()
        .field("passed", passed_)
        .field("failed", failed_)
        .field("skipped", skipped)
        .field("nodes", nodes_)
        .field("seconds", elapsed)
        .field("nps", elapsed > 0 ? double(nodes_) / elapsed : 0.0)
        .field("backend", backend_names())
        .field("threads", threads);
    json.key("files").begin_array();
    for (const std::string& file : options_.files) json.value(file);
    json.end_array();
    json.key("failures").begin_array();
    for (const Failure& f : failures_) {
      json.begin_object().field("kind", failure_kind_name(f.kind)).field("source", f.source);
      if (f.kind != FailureKind::MALFORMED) json.field("name", f.name).field("fen", f.fen);
      if (f.kind == FailureKind::MISMATCH)
        json.field("depth", f.depth).field("expected", f.expected).field("got", f.got);
      else json.field("reason", f.reason);
      json.end_object();
    }
    json.end_array().end_object();
    out_ << std::flush;
  }

  const VerifyOptions& options_;
  std::ostream& out_;
  std::ostream& err_;
  ProgressLine progress_;  // its clock starts with the run
  std::mutex mutex_;
  std::atomic<bool> stopped_{false};
  std::string fatal_message_;
  std::size_t total_checks_ = 0, done_checks_ = 0, passed_ = 0, failed_ = 0;
  u128 total_work_ = 0, done_work_ = 0, nodes_ = 0;
  std::set<std::string> backends_;
  std::vector<Failure> failures_;
  bool planned_ = false;                            // set_work has run: every check is known
  std::multiset<InputPlace> unfinished_;            // checks not yet finished
  std::multimap<InputPlace, std::string> waiting_;  // failure lines not yet printed
};

// Redraws the progress line a few times a second while it exists (when enabled).
class ProgressTicker {
 public:
  ProgressTicker(Reporter& reporter, bool enabled) {
    if (!enabled) return;
    thread_ = std::jthread([this, &reporter](std::stop_token stop) {
      std::mutex m;
      std::unique_lock lock(m);
      while (!stop.stop_requested()) {
        reporter.draw_progress();
        wake_.wait_for(lock, stop, std::chrono::milliseconds(250), [] { return false; });
      }
    });
  }
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  std::condition_variable_any wake_;
  std::jthread thread_;  // declared last: stopped and joined before wake_ goes away
};

// Reads every file; nullopt (the reason on err) when one cannot be read or holds nothing.
std::optional<std::vector<Suite>> read_suites(const std::vector<std::string>& files, std::ostream& err) {
  std::vector<Suite> suites;
  bool ok = true;
  for (const std::string& file : files) {
    SuiteFileResult result = read_suite(file);
    if (!result) {
      err << "perftkit: error: " << result.error << '\n';
      ok = false;
    } else if (result->cases.empty()) {
      // Not a suite at all (a PGN, a binary file): bad input, not a failed check.
      err << "perftkit: error: " << file << ": no perft cases found";
      if (!result->errors.empty())
        err << " (" << result->errors.size() << " line" << (result->errors.size() == 1 ? "" : "s")
            << " could not be read; the first, line " << result->errors.front().line << ": "
            << result->errors.front().reason << ")";
      err << '\n';
      ok = false;
    } else {
      suites.push_back(std::move(*result.value));
    }
  }
  if (!ok) return std::nullopt;
  return suites;
}

}  // namespace

int run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  Reporter reporter(options, out, err);
  const std::optional<std::vector<Suite>> suites = read_suites(options.files, err);
  if (!suites) return EXIT_BAD_INPUT;
  for (std::size_t file_index = 0; file_index < suites->size(); ++file_index)
    for (const SuiteError& e : (*suites)[file_index].errors) reporter.add_failure(malformed_failure(file_index, e), 1);
  std::size_t skipped = 0;
  const std::vector<Check> checks =
      plan_suite_checks(*suites, {options.max_depth, u128(options.max_nodes)}, reporter, skipped);
  u128 work = 0;
  for (const Check& c : checks) work += c.expected;
  reporter.set_work(checks, work);

  const unsigned threads = threads_or_all_cores(options.threads);
  {
    const ProgressTicker ticker(reporter, options.progress && !options.quiet);
    run_suite_checks(checks, threads, options.backend, reporter);
  }
  return reporter.finish(skipped, threads);
}

void add_verify_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<VerifyOptions>();
  auto force_progress = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("verify", "Run perft suites and compare every count with the expected one");
  cmd->add_option("files", options->files,
                  "Suite files: 'FEN ;D1 n ;D2 n' or 'FEN; D1 n; D2 n' lines, or id/epd/perft blocks")
      ->required();
  cmd->add_option("--max-depth", options->max_depth, "Check depths up to N only (default: every listed depth)")
      ->check(CLI::Range(0, SUITE_MAX_DEPTH));
  cmd->add_option("--max-nodes", options->max_nodes, "Skip a (position, depth) whose expected count exceeds N");
  cmd->add_option("-t,--threads", options->threads, "CPU threads (default, or 0: all cores)")
      ->check(CLI::Range(0u, 4096u));
  cmd->add_option("--backend", options->backend,
                  "auto | cpu | cuda | pipeline (cuda: checks under 10M nodes run on the CPU)")
      ->transform(CLI::CheckedTransformer(BACKEND_NAMES, CLI::ignore_case))
      ->default_str("auto");
  cmd->add_flag("--json", options->json, "Write the summary and failures as JSON on stdout");
  cmd->add_flag("-q,--quiet", options->quiet, "Nothing on stderr but errors (no progress, no timing)");
  cmd->add_flag("--progress", *force_progress, "Show progress on stderr even when it is not a terminal");
  cmd->callback([options, force_progress, &exit_code] {
    options->progress_in_place = isatty(STDERR_FILENO) == 1;
    options->progress = *force_progress || options->progress_in_place;
    exit_code = run_verify(*options, std::cout, std::cerr);
  });
}

}  // namespace perftkit
