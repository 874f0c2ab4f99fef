#include "common/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "common/errors.hpp"

namespace perftkit {
namespace {

// The handler may run at any instant on any thread, so it reads only these fixed slots: a
// slot is claimed, its path written, and only then armed; the handler removes armed paths.
constexpr std::size_t SLOTS = 4;
constexpr std::size_t PATH_BYTES = 4096;
enum SlotState : int { FREE, CLAIMED, ARMED };

struct Slot {
  std::atomic<int> state{FREE};
  char path[PATH_BYTES];
};
std::array<Slot, SLOTS> slots;

void write_message(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Async-signal-safe only: unlink, write, _exit.
extern "C" void on_interrupt(int signal_number) {
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == ARMED) ::unlink(slot.path);
  write_message(signal_number == SIGINT ? "\nperftkit: interrupted\n" : "perftkit: terminated\n");
  ::_exit(128 + signal_number);
}

}  // namespace

void stop_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void remove_on_interrupt(const std::string& path) {
  if (path.size() >= PATH_BYTES) throw UsageError("output path too long: " + path);
  for (Slot& slot : slots) {
    int expected = FREE;
    if (slot.state.compare_exchange_strong(expected, CLAIMED, std::memory_order_acq_rel)) {
      std::memcpy(slot.path, path.c_str(), path.size() + 1);
      slot.state.store(ARMED, std::memory_order_release);
      return;
    }
  }
  throw std::logic_error("remove_on_interrupt: more partial files than slots");
}

void forget_on_interrupt(const std::string& path) {
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == ARMED && path == slot.path)
      slot.state.store(FREE, std::memory_order_release);
}

}  // namespace perftkit
