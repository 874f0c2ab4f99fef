// A growable byte buffer for input blocks and output rows: space is reserved, written
// through a raw pointer and committed, so that filling it never allocates once it has grown.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace perftkit {

class ByteBuffer {
 public:
  // A pointer to at least n writable bytes after the current end.
  char* reserve(std::size_t n) {
    if (size_ + n > capacity_) grow(size_ + n);
    return data_.get() + size_;
  }
  // Marks everything up to end (a pointer from reserve, advanced) as written.
  void commit(const char* end) { size_ = std::size_t(end - data_.get()); }
  void append(std::string_view text) {
    char* p = reserve(text.size());
    if (!text.empty()) std::memcpy(p, text.data(), text.size());
    size_ += text.size();
  }
  // Keeps the first n bytes (n <= size()).
  void truncate(std::size_t n) { size_ = n; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  char* data() { return data_.get(); }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  void grow(std::size_t needed) {
    std::size_t capacity = capacity_ ? capacity_ * 2 : 4096;
    while (capacity < needed) capacity *= 2;
    std::unique_ptr<char[]> data(new char[capacity]);
    if (size_) std::memcpy(data.get(), data_.get(), size_);
    data_ = std::move(data);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace perftkit
