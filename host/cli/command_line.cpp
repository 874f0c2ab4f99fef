// The perftkit command line: every subcommand registered on one CLI11 parser, and each kind
// of failure mapped to its exit code (README, "Exit codes").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <system_error>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/bench_command.hpp"
#include "cli/classify_command.hpp"
#include "cli/diff_command.hpp"
#include "cli/cli_common.hpp"
#include "cli/info_command.hpp"
#include "cli/list_arguments.hpp"
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

namespace perftkit {

int run_command_line(int original_argc, char** original_argv) {
  std::vector<std::string> words = join_list_words({original_argv, original_argv + original_argc});
  std::vector<char*> word_pointers;
  for (std::string& word : words) word_pointers.push_back(word.data());
  word_pointers.push_back(nullptr);
  const int argc = static_cast<int>(words.size());
  char** argv = word_pointers.data();
  CLI::App app{"perftkit: GPU-accelerated, massively parallel perft and chess position analysis"};
  app.set_version_flag(
      "--version", "perftkit " + std::string(perftkit_version()) + " (commit " + std::string(perftkit_commit()) + ")");
  app.require_subcommand(1);
  int exit_code = EXIT_OK;
  add_perft_command(app, exit_code);
  add_verify_command(app, exit_code);
  add_bench_command(app, exit_code);
  add_info_command(app, exit_code);
  add_classify_command(app, exit_code);
  add_status_command(app, exit_code);
  add_reduce_command(app, exit_code);
  add_work_command(app, exit_code);
  add_uci_command(app, exit_code);
  add_perftree_command(app, exit_code);
  add_diff_command(app, exit_code);
  add_suite_command(app, exit_code);
  refuse_options_as_values(app);
  stop_on_interrupt();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      const std::string unknown = unknown_argument_message(app, argc, argv);
      if (!unknown.empty()) {
        std::fprintf(stderr, "perftkit: error: %s\nRun with --help for more information.\n", unknown.c_str());
        return EXIT_BAD_INPUT;
      }
    }
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? EXIT_OK : EXIT_BAD_INPUT;  // --help, --version
    // Every error in one style: the prefix the README promises, and names, not CLI11's tables.
    std::fprintf(stderr, "perftkit: error: %s\nRun with --help for more information.\n",
                 readable_parse_error(e.what()).c_str());
    return EXIT_BAD_INPUT;
  } catch (const CheckFailed& e) {
    std::fprintf(stderr, "perftkit: check failed: %s\n", e.what());
    return EXIT_CHECK_FAILED;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return EXIT_BAD_INPUT;
  } catch (const RuntimeFailure& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return EXIT_RUNTIME_FAILURE;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "perftkit: error: out of memory (try a smaller --hash or fewer --threads)\n");
    return EXIT_RUNTIME_FAILURE;
  } catch (const std::system_error& e) {  // a system call failed: I/O, files, threads
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return EXIT_RUNTIME_FAILURE;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perftkit: error: %s\n", e.what());
    return EXIT_BAD_INPUT;
  }
  return exit_code;
}

}  // namespace perftkit
