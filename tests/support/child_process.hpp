// The perftkit binary under test as a child process that a test can kill at any moment.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "support/test_paths.hpp"

extern char** environ;

namespace perftkit::testing_support {

class ChildProcess {
 public:
  // Starts `perftkit ARGS`, its stdout and stderr appended to log_path. pid() is -1 when it
  // could not be started.
  ChildProcess(const std::vector<std::string>& args, const std::string& log_path) {
    std::vector<std::string> argv_text{perftkit::test_paths::perftkit_binary()};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_text) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~ChildProcess() {
    if (pid_ > 0 && !has_status_) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }

  // True while it runs (a finished child is reaped and its status kept).
  bool running() {
    if (has_status_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
    status_ = status;
    has_status_ = true;
    return false;
  }

  // Waits for it to end; returns the raw wait status.
  int wait() {
    if (!has_status_) {
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      status_ = status;
      has_status_ = true;
    }
    return status_;
  }

  // SIGKILL now; true when the signal ended it (it was still running).
  bool kill_now() {
    if (!running()) return false;
    ::kill(pid_, SIGKILL);
    const int status = wait();
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool has_status_ = false;
};

}  // namespace perftkit::testing_support
