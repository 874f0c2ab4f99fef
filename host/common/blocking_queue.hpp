// A blocking queue between threads (the classify pipeline, the decompressing reader).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace perftkit {

// A queue between threads. close(): pop() drains what is left, then returns nullopt;
// abort(): pop() returns nullopt at once.
template <typename T>
class BlockingQueue {
 public:
  void push(T item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return aborted_ || closed_ || !items_.empty(); });
    if (aborted_ || items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    return item;
  }
  void close() { set(closed_); }
  void abort() { set(aborted_); }

 private:
  void set(bool& flag) {
    {
      std::lock_guard lock(mutex_);
      flag = true;
    }
    ready_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<T> items_;
  bool closed_ = false, aborted_ = false;
};

}  // namespace perftkit
