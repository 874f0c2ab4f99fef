#include "enginediff/engine_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "enginediff/engine_failure.hpp"

namespace perftkit {

const char* engine_failure_name(EngineFailureKind kind) {
  switch (kind) {
    case EngineFailureKind::CANNOT_START: return "cannot start";
    case EngineFailureKind::CRASHED: return "crashed";
    case EngineFailureKind::TIMED_OUT: return "timed out";
    case EngineFailureKind::UNREADABLE_OUTPUT: return "unreadable output";
    case EngineFailureKind::OTHER_NOTATION: return "output in another notation";
  }
  return "failed";
}

namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

EngineProcess::EngineProcess(const std::vector<std::string>& argv) {
  // A write to an engine that died must fail with EPIPE, not end perftkit.
  ::signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2], exec_error[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0 || ::pipe2(exec_error, O_CLOEXEC) != 0)
    throw EngineFailure(EngineFailureKind::CANNOT_START, std::string("cannot make pipes: ") + std::strerror(errno), {});
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw EngineFailure(EngineFailureKind::CANNOT_START, std::string("fork: ") + std::strerror(errno), {});
  if (pid_ == 0) {
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    ::execvp(args[0], args.data());
    const int error = errno;
    (void)!::write(exec_error[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  ::close(exec_error[1]);
  input_fd_ = to_child[1];
  output_fd_ = from_child[0];
  int error = 0;
  const ssize_t got = ::read(exec_error[0], &error, sizeof error);  // 0 bytes: exec succeeded
  ::close(exec_error[0]);
  if (got == sizeof error) {
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    close_fd(input_fd_);
    close_fd(output_fd_);
    throw EngineFailure(EngineFailureKind::CANNOT_START, "cannot run '" + argv[0] + "': " + std::strerror(error), {});
  }
}

EngineProcess::~EngineProcess() {
  close_fd(input_fd_);
  if (pid_ > 0 && !exited_) kill_now();
  close_fd(output_fd_);
}

bool EngineProcess::write_line(std::string_view line) {
  if (input_fd_ < 0) return false;
  std::string data(line);
  data += '\n';
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(input_fd_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

void EngineProcess::close_input() { close_fd(input_fd_); }

// Blank lines say nothing in a failure report (and the blank line that ends one divide would
// otherwise be quoted as the next position's output).
void EngineProcess::remember(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  last_lines_.push_back(line);
  while (last_lines_.size() > LAST_LINES_KEPT) last_lines_.pop_front();
}

EngineProcess::Read EngineProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const std::size_t newline = pending_.find('\n');
    if (newline != std::string::npos) {
      line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      remember(line);
      return Read::LINE;
    }
    if (output_closed_) {
      if (pending_.empty()) return Read::END;
      line = std::move(pending_);
      pending_.clear();
      remember(line);
      return Read::LINE;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Read::TIMEOUT;
    pollfd watch{output_fd_, POLLIN, 0};
    const int ready = ::poll(&watch, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return Read::END;
    if (ready <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::read(output_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      output_closed_ = true;
      continue;
    }
    pending_.append(buffer, std::size_t(n));
  }
}

std::string EngineProcess::describe_status(int status) {
  exited_ = true;
  if (WIFEXITED(status)) {
    exit_status_ = WEXITSTATUS(status);
    return "exited with code " + std::to_string(exit_status_);
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "was killed by signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
  }
  return "ended with status " + std::to_string(status);
}

void EngineProcess::kill_now() {
  if (pid_ <= 0 || exited_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_description_ = describe_status(status);
}

std::string EngineProcess::wait_for_exit(Clock::time_point deadline) {
  if (exited_) return exit_description_;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) return exit_description_ = describe_status(status);
    if (Clock::now() >= deadline) {
      kill_now();
      return exit_description_ = "did not exit in time and was killed";
    }
    ::usleep(2000);
  }
}

}  // namespace perftkit
