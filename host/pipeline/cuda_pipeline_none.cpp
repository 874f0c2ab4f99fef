// The GPU half of the frontier pipeline in a build without CUDA (CMake chooses this file):
// there is no device to count on. pipeline.cpp never calls it, as cuda::device_count() is 0
// here; a caller that does gets the same error as a build with CUDA and no device.
#include <stdexcept>

#include "pipeline/cuda_pipeline.hpp"

namespace perftkit::cuda {

struct CudaSession::Devices {};
CudaSession::CudaSession() = default;
CudaSession::~CudaSession() = default;

template <typename Tally>
pipeline::BatchResults<Tally> count_batches_pipeline(const std::vector<FrontierNode>&,
                                                     const std::vector<pipeline::BatchSpan>&, int,
                                                     const PipelineOptions&) {
  throw std::runtime_error("pipeline: perftkit was built without CUDA");
}

template pipeline::BatchResults<pipeline::CountNodes> count_batches_pipeline<pipeline::CountNodes>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);
template pipeline::BatchResults<pipeline::CountStats> count_batches_pipeline<pipeline::CountStats>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);

}  // namespace perftkit::cuda
