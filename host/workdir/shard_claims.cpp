#include "workdir/shard_claims.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <stdexcept>

#include "common/durable_file.hpp"
#include "common/interrupt.hpp"

namespace perftkit {
namespace {

double now_seconds() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

std::string claim_text() { return "host " + this_host_name() + "\npid " + std::to_string(::getpid()) + "\n"; }

// A process of this host that still exists (a zombie counts until it is reaped).
bool process_alive(long pid) { return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM); }

}  // namespace

std::string this_host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "unknown-host";
  return name;
}

std::optional<ClaimInfo> read_claim(const WorkDir& dir, std::uint32_t id) {
  const std::string path = dir.claim_path(id);
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  ClaimInfo claim;
  claim.host = "?";
  claim.age_seconds = now_seconds() - (double(info.st_mtim.tv_sec) + double(info.st_mtim.tv_nsec) * 1e-9);
  const std::optional<std::string> text = read_file(path);
  if (!text) return std::nullopt;
  for (std::size_t at = 0; at < text->size();) {
    std::size_t end = text->find('\n', at);
    if (end == std::string::npos) end = text->size();
    const std::string line = text->substr(at, end - at);
    if (line.starts_with("host ")) claim.host = line.substr(5);
    if (line.starts_with("pid ")) claim.pid = std::atol(line.c_str() + 4);
    at = end + 1;
  }
  return claim;
}

bool claim_is_stale(const ClaimInfo& claim, double timeout_seconds) {
  if (claim.age_seconds > timeout_seconds) return true;
  if (claim.host != this_host_name()) return false;
  return claim.pid == ::getpid() || !process_alive(claim.pid);  // our own pid: a claim we do not hold
}

namespace {

// A claim this process holds goes if the process is interrupted (Ctrl-C, kill): its shard is
// not done, and the claim must not wait for its timeout, or for `status` to call it stale.
// With every slot of common/interrupt taken it is left to go stale, as before.
void remove_claim_on_interrupt(const std::string& path) {
  try {
    remove_on_interrupt(path);
  } catch (const std::logic_error&) {
  }
}

}  // namespace

ShardClaims::ShardClaims(const WorkDir& dir, double timeout_seconds)
    : dir_(dir), timeout_seconds_(timeout_seconds), heartbeat_([this] { heartbeat_loop(); }) {}

ShardClaims::~ShardClaims() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  heartbeat_.join();
  for (std::uint32_t id : held_) {
    forget_on_interrupt(dir_.claim_path(id));
    ::unlink(dir_.claim_path(id).c_str());
  }
}

bool ShardClaims::try_claim(std::uint32_t id) {
  const std::string path = dir_.claim_path(id);
  bool claimed = create_file_exclusively(path, claim_text());
  if (!claimed) {
    const std::optional<ClaimInfo> claim = read_claim(dir_, id);
    if (claim && !claim_is_stale(*claim, timeout_seconds_)) return false;
    if (claim) discard(id);
    claimed = create_file_exclusively(path, claim_text());
  }
  if (claimed) {
    remove_claim_on_interrupt(path);
    std::lock_guard lock(mutex_);
    held_.insert(id);
  }
  return claimed;
}

void ShardClaims::release(std::uint32_t id) {
  {
    std::lock_guard lock(mutex_);
    held_.erase(id);
  }
  forget_on_interrupt(dir_.claim_path(id));
  ::unlink(dir_.claim_path(id).c_str());
}

void ShardClaims::discard(std::uint32_t id) {
  static std::atomic<unsigned long> serial{0};
  const std::string aside = dir_.claims_dir() + "/." + WorkDir::shard_name(id) + ".stale.tmp." +
                            std::to_string(::getpid()) + "." + std::to_string(serial++);
  if (::rename(dir_.claim_path(id).c_str(), aside.c_str()) == 0) ::unlink(aside.c_str());
}

void ShardClaims::remove_if_stale(std::uint32_t id) {
  {
    std::lock_guard lock(mutex_);
    if (held_.count(id)) return;
  }
  const std::optional<ClaimInfo> claim = read_claim(dir_, id);
  if (claim && claim_is_stale(*claim, timeout_seconds_)) discard(id);
}

void ShardClaims::heartbeat_loop() {
  const auto period = std::chrono::duration<double>(timeout_seconds_ / 4);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    for (std::uint32_t id : held_) ::utimensat(AT_FDCWD, dir_.claim_path(id).c_str(), nullptr, 0);
  }
}

}  // namespace perftkit
