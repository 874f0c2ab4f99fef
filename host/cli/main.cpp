// perftkit: exact perft (in memory or as durable shards), suite verification, bulk
// classification and benchmarks.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <system_error>
#include <string>

#include "cli/bench_command.hpp"
#include "cli/classify_command.hpp"
#include "cli/diff_command.hpp"
#include "cli/cli_common.hpp"
#include "cli/info_command.hpp"
#include "cli/perft_command.hpp"
#include "cli/perftree_command.hpp"
#include "cli/reduce_command.hpp"
#include "cli/status_command.hpp"
#include "cli/suite_command.hpp"
#include "cli/uci_command.hpp"
#include "cli/unknown_arguments.hpp"
#include "cli/verify_command.hpp"
#include "cli/work_command.hpp"
#include "common/interrupt.hpp"
#include "common/build_info.hpp"

int main(int argc, char** argv) {
  CLI::App app{"perftkit: GPU-accelerated, massively parallel perft and chess position analysis"};
  app.set_version_flag("--version", "perftkit " + std::string(perftkit::perftkit_version()) + " (commit " +
                                        std::string(perftkit::perftkit_commit()) + ")");
  app.require_subcommand(1);
  int exit_code = perftkit::EXIT_OK;
  perftkit::add_perft_command(app, exit_code);
  perftkit::add_verify_command(app, exit_code);
  perftkit::add_bench_command(app, exit_code);
  perftkit::add_info_command(app, exit_code);
  perftkit::add_classify_command(app, exit_code);
  perftkit::add_status_command(app, exit_code);
  perftkit::add_reduce_command(app, exit_code);
  perftkit::add_work_command(app, exit_code);
  perftkit::add_uci_command(app, exit_code);
  perftkit::add_perftree_command(app, exit_code);
  perftkit::add_diff_command(app, exit_code);
  perftkit::add_suite_command(app, exit_code);
  perftkit::refuse_options_as_values(app);
  perftkit::stop_on_interrupt();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      const std::string unknown = perftkit::unknown_argument_message(app, argc, argv);
      if (!unknown.empty()) {
        std::fprintf(stderr, "perftkit: error: %s\nRun with --help for more information.\n", unknown.c_str());
        return perftkit::EXIT_BAD_INPUT;
      }
    }
    const int rc = app.exit(e);
    return rc == 0 ? perftkit::EXIT_OK : perftkit::EXIT_BAD_INPUT;
  } catch (const perftkit::CheckFailed& e) {
    std::fprintf(stderr, "perftkit: check failed: %s\n", e.what());
    return perftkit::EXIT_CHECK_FAILED;
  } catch (const perftkit::UsageError& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return perftkit::EXIT_BAD_INPUT;
  } catch (const perftkit::RuntimeFailure& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return perftkit::EXIT_RUNTIME_FAILURE;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "perftkit: error: out of memory (try a smaller --hash or fewer --threads)\n");
    return perftkit::EXIT_RUNTIME_FAILURE;
  } catch (const std::system_error& e) {  // a system call failed: I/O, files, threads
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return perftkit::EXIT_RUNTIME_FAILURE;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return perftkit::EXIT_BAD_INPUT;
  }
  return exit_code;
}
