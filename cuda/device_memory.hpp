// Move-only owners of device resources: a typed device buffer, a stream, and a guard
// that makes a device current for a scope. Host code only.
#pragma once

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace perftkit::cuda {

// count elements of T in device memory, uninitialised. Allocation failure throws CudaError
// (out_of_memory() for cudaErrorMemoryAllocation, which leaves the context usable).
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count) PERFTKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }

  // Copies n elements from host memory into the front of the buffer; does not wait for
  // the GPU beyond what cudaMemcpyAsync from pageable memory implies.
  void upload_async(const T* host, std::size_t n, cudaStream_t stream) {
    PERFTKIT_CUDA_CHECK(cudaMemcpyAsync(data_, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  // Copies the first n elements to host memory; the data is there once stream is synchronised.
  void download_async(T* host, std::size_t n, cudaStream_t stream) const {
    PERFTKIT_CUDA_CHECK(cudaMemcpyAsync(host, data_, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

 private:
  void release() noexcept {
    if (data_) PERFTKIT_CUDA_CHECK_NOTHROW(cudaFree(data_));
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A non-blocking stream of the current device.
class Stream {
 public:
  Stream() { PERFTKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      release();
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { release(); }

  cudaStream_t get() const noexcept { return stream_; }
  // Waits for all work queued on the stream; throws the first asynchronous error.
  void synchronize() const { PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  void release() noexcept {
    if (stream_) PERFTKIT_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
    stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
};

// Makes `device` current for the calling thread until the end of the scope.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) {
    PERFTKIT_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) PERFTKIT_CUDA_CHECK(cudaSetDevice(device));
  }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;
  ~ScopedDevice() {
    int current = previous_;
    PERFTKIT_CUDA_CHECK_NOTHROW(cudaGetDevice(&current));
    if (current != previous_) PERFTKIT_CUDA_CHECK_NOTHROW(cudaSetDevice(previous_));
  }

 private:
  int previous_ = 0;
};

}  // namespace perftkit::cuda
