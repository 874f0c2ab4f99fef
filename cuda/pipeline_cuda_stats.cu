// Leaf statistics of the frontier pipeline on the GPUs, in a translation unit of its own.
#include "pipeline_cuda_worker.cuh"

namespace perftkit::cuda {

template pipeline::BatchResults<pipeline::CountStats> count_batches_pipeline<pipeline::CountStats>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);

}  // namespace perftkit::cuda
