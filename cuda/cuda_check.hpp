// One checked-call macro for every CUDA runtime call and launch. Host code only (the CUDA
// runtime API is plain C++); included by the backend's .cu files, not by host/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"

namespace perftkit::cuda {

// A failed CUDA call: what() names file, line, the call's text and the runtime's message.
// A runtime failure (exit code 3), never "bad input".
class CudaError : public RuntimeFailure {
 public:
  CudaError(cudaError_t code, const std::string& what) : RuntimeFailure(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }
  bool out_of_memory() const noexcept { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
};

namespace detail {

inline std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cudaGetErrorName(code) + ": " +
         cudaGetErrorString(code);
}

inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, describe_cuda_error(code, call, file, line));
}

// For destructors: reports to stderr and carries on.
inline void check_cuda_nothrow(cudaError_t code, const char* call, const char* file, int line) noexcept {
  if (code != cudaSuccess) std::fprintf(stderr, "perftkit: %s\n", describe_cuda_error(code, call, file, line).c_str());
}

}  // namespace detail
}  // namespace perftkit::cuda

// Throws perftkit::cuda::CudaError when call does not return cudaSuccess.
#define PERFTKIT_CUDA_CHECK(call) ::perftkit::cuda::detail::check_cuda((call), #call, __FILE__, __LINE__)
// The same check for destructors and other noexcept paths: prints, never throws.
#define PERFTKIT_CUDA_CHECK_NOTHROW(call) \
  ::perftkit::cuda::detail::check_cuda_nothrow((call), #call, __FILE__, __LINE__)
