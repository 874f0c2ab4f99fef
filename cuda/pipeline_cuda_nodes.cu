// Node counts (and the subtree mode) of the frontier pipeline on the GPUs, in a translation
// unit of its own.
#include "pipeline_cuda_worker.cuh"

namespace perftkit::cuda {

template pipeline::BatchResults<pipeline::CountNodes> count_batches_pipeline<pipeline::CountNodes>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);

}  // namespace perftkit::cuda
