#include "common/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
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

// The note, double-buffered: set_interrupt_note writes the buffer not in use, then publishes
// its index; the handler reads the published one. (Two notes set within one handler's write
// could tear the text it reads; a note changes once a shard.)
constexpr std::size_t NOTE_BYTES = 512;
char notes[2][NOTE_BYTES];
std::atomic<int> published_note{-1};
std::mutex note_writer;

// Set by the first handler to run; lock-free, so the handler may use it.
std::atomic<bool> stopping{false};
static_assert(std::atomic<bool>::is_always_lock_free);
// Tests only (PERFTKIT_TEST_INTERRUPT_DELAY_MS, read once at setup): how long the handler
// waits between its message and _exit, so that a test can send a second signal meanwhile.
timespec exit_delay{};

// Async-signal-safe only: unlink, write, nanosleep, pause, _exit. One handler does the work:
// a second signal (timeout(1) sends SIGINT to the process and to its process group, so it
// can arrive twice) may start another handler on another thread, which waits for the first
// one's _exit instead of printing the message again.
extern "C" void on_interrupt(int signal_number) {
  if (stopping.exchange(true))
    for (;;) ::pause();
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == ARMED) ::unlink(slot.path);
  write_message(signal_number == SIGINT ? "\nperftkit: interrupted" : "perftkit: terminated");
  if (const int note = published_note.load(std::memory_order_acquire); note >= 0) {
    write_message(": ");
    write_message(notes[note]);
  }
  write_message("\n");
  if (exit_delay.tv_sec || exit_delay.tv_nsec) ::nanosleep(&exit_delay, nullptr);
  ::_exit(128 + signal_number);
}

}  // namespace

void stop_on_interrupt() {
  if (const char* delay = std::getenv("PERFTKIT_TEST_INTERRUPT_DELAY_MS")) {
    const long ms = std::strtol(delay, nullptr, 10);
    if (ms > 0 && ms < 60000) exit_delay = {ms / 1000, (ms % 1000) * 1000000L};
  }
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  // The thread that handles one of them holds both off (another thread may still take one).
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
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

void set_interrupt_note(const std::string& note) {
  const std::lock_guard lock(note_writer);
  if (note.empty()) {
    published_note.store(-1, std::memory_order_release);
    return;
  }
  const int next = published_note.load(std::memory_order_relaxed) == 0 ? 1 : 0;
  const std::size_t n = std::min(note.size(), NOTE_BYTES - 1);
  std::memcpy(notes[next], note.data(), n);
  notes[next][n] = '\0';
  published_note.store(next, std::memory_order_release);
}

}  // namespace perftkit
