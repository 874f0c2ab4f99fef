// An external program with pipes to its standard input and output (its standard error is
// left to the terminal), read line by line against a deadline and killed by its pid when it
// overstays. No shell runs in between.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace perftkit {

class EngineProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts argv[0] (looked up in PATH) with the rest as arguments. Throws EngineFailure
  // (CANNOT_START) with the system's reason when it cannot be run.
  explicit EngineProcess(const std::vector<std::string>& argv);
  ~EngineProcess();  // kills the program if it still runs, and reaps it
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Writes line and a newline; false when the program no longer reads its input.
  bool write_line(std::string_view line);
  void close_input();

  enum class Read { LINE, END, TIMEOUT };
  // The next line without its newline (a final line without one counts), END once the
  // output is closed, or TIMEOUT at the deadline.
  Read read_line(std::string& line, Clock::time_point deadline);

  // Kills the program (SIGKILL to its pid) and reaps it.
  void kill_now();
  // Waits for the program to end, up to deadline (then kills it); how it ended:
  // "exited with code 0", "killed by signal 11 (Segmentation fault)".
  std::string wait_for_exit(Clock::time_point deadline);
  // Whether it ended cleanly (exit code 0); valid after wait_for_exit.
  bool exited_cleanly() const { return exited_ && exit_status_ == 0; }

  // The last lines read that are not blank, oldest first (at most LAST_LINES_KEPT).
  std::vector<std::string> last_lines() const { return {last_lines_.begin(), last_lines_.end()}; }
  static constexpr std::size_t LAST_LINES_KEPT = 8;
  // Starts the last lines afresh: a long-running engine is asked about a new position, and a
  // failure report quotes that position's lines, not the previous one's.
  void forget_lines() { last_lines_.clear(); }

 private:
  void remember(const std::string& line);
  std::string describe_status(int status);

  pid_t pid_ = -1;
  int input_fd_ = -1;
  int output_fd_ = -1;
  std::string pending_;  // bytes read after the last complete line
  bool output_closed_ = false;
  bool exited_ = false;
  int exit_status_ = -1;
  std::string exit_description_;
  std::deque<std::string> last_lines_;
};

}  // namespace perftkit
