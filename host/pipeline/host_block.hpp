// Host memory for a pipeline worker's level buffers: the Block of a System (worker.hpp) whose
// memory is the host's. Not initialised: the levels write before they read.
#pragma once

#include <cstddef>
#include <memory>

namespace perftkit::pipeline {

class HostBlock {
 public:
  HostBlock() = default;
  explicit HostBlock(std::size_t bytes) : bytes_(new std::byte[bytes]), size_(bytes) {}
  std::byte* data() const { return bytes_.get(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t size_ = 0;
};

}  // namespace perftkit::pipeline
