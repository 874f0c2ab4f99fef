// perftkit.verify: a perft suite checked as `perftkit verify` checks it, each case's result a dict.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "common/errors.hpp"
#include "common/thread_count.hpp"
#include "interruptible.hpp"
#include "perft/suite_checks.hpp"

namespace nb = nanobind;

namespace perftkit::python {
namespace {

// One result: a count compared (depth > 0), a rejected position or an unreadable line.
struct CaseResult {
  std::size_t line = 0;
  int depth = 0;  // 0: no count was made
  const SuiteCase* suite_case = nullptr;
  std::string source;
  u128 expected = 0, nodes = 0;
  std::string error;
};

class CollectingListener final : public SuiteCheckListener {
 public:
  void invalid_position(std::size_t, const SuiteCase& c, const std::string& reason, std::size_t) override {
    add({c.line, 0, &c, c.source, 0, 0, "invalid FEN: " + reason});
  }
  void finished(const SuiteCheck& check, const PerftReport& report) override {
    add({check.suite_case->line, check.depth, check.suite_case, check.suite_case->source, check.expected, report.nodes,
         ""});
  }
  void failed(const SuiteCheck& check, const std::string& message) override {
    add({check.suite_case->line, check.depth, check.suite_case, check.suite_case->source, check.expected, 0, message});
  }
  void add(CaseResult result) {
    const std::lock_guard lock(mutex_);
    results_.push_back(std::move(result));
  }
  // In the suite's order: by line, then depth.
  std::vector<CaseResult> take() {
    std::sort(results_.begin(), results_.end(), [](const CaseResult& a, const CaseResult& b) {
      return std::tie(a.line, a.depth) < std::tie(b.line, b.depth);
    });
    return std::move(results_);
  }

 private:
  std::mutex mutex_;
  std::vector<CaseResult> results_;
};

struct VerifyJob {
  std::vector<Suite> suites;
  CollectingListener listener;
};

nb::dict result_dict(const CaseResult& r) {
  nb::dict d;
  d["source"] = r.source;
  d["name"] = r.suite_case ? nb::object(nb::str(r.suite_case->name.c_str())) : nb::none();
  d["fen"] = r.suite_case ? nb::object(nb::str(r.suite_case->fen.c_str())) : nb::none();
  d["depth"] = r.depth ? nb::object(nb::int_(r.depth)) : nb::none();
  d["expected"] = r.depth ? to_python_int(r.expected) : nb::none();
  d["nodes"] = r.depth && r.error.empty() ? to_python_int(r.nodes) : nb::none();
  d["passed"] = r.depth && r.error.empty() && r.nodes == r.expected;
  d["error"] = r.error.empty() ? nb::none() : nb::object(nb::str(r.error.c_str()));
  return d;
}

nb::list verify(const std::string& path, std::optional<std::uint64_t> max_nodes, std::optional<int> max_depth,
                std::optional<unsigned> threads, const std::string& backend) {
  SuiteFileResult read = read_suite(path);
  if (!read) throw UsageError(read.error);
  if (read->cases.empty()) throw UsageError(path + ": no perft cases found");
  const auto job = std::make_shared<VerifyJob>();
  job->suites.push_back(std::move(*read.value));
  for (const SuiteError& e : job->suites.front().errors)
    job->listener.add({e.line, 0, nullptr, e.source, 0, 0, e.reason});

  SuiteCheckLimits limits;
  if (max_nodes) limits.max_nodes = *max_nodes;
  if (max_depth) limits.max_depth = *max_depth;
  const Backend chosen = backend_named(backend);
  const unsigned workers = threads_or_all_cores(threads.value_or(0));
  run_interruptibly([job, limits, chosen, workers] {
    std::size_t skipped = 0;
    const std::vector<SuiteCheck> checks = plan_suite_checks(job->suites, limits, job->listener, skipped);
    run_suite_checks(checks, workers, chosen, job->listener);
    return skipped;
  });
  nb::list results;
  for (const CaseResult& r : job->listener.take()) results.append(result_dict(r));
  return results;
}

}  // namespace

void bind_verify(nb::module_& m) {
  m.def("verify", &verify,
        nb::sig("def verify(path: str, *, max_nodes: int | None = None, max_depth: int | None = None, threads: int | "
                "None = None, backend: str = 'auto') -> list[dict[str, typing.Any]]"),
        nb::arg("path"), nb::kw_only(), nb::arg("max_nodes") = nb::none(), nb::arg("max_depth") = nb::none(),
        nb::arg("threads") = nb::none(), nb::arg("backend") = "auto",
        "Checks a perft suite (EPD ';D1 n' lines, or id/epd/perft blocks) as `perftkit verify` does: a list\n"
        "of dicts in the file's order, one per (position, depth) counted, with source ('file:line'),\n"
        "name, fen, depth, expected, nodes, passed and error (None, or why the count could not be\n"
        "made). A position that is not valid and a line that cannot be read give a dict with passed\n"
        "False and the reason in error. max_nodes and max_depth skip larger checks. ValueError when\n"
        "the file cannot be read or holds no case.");
}

}  // namespace perftkit::python
