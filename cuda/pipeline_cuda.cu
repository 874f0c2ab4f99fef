// The frontier pipeline on the GPUs, node counts (and the subtree mode) and leaf statistics,
// in one translation unit: the two tallies launch many of the same kernels (child counts and
// children, scans, sorts), and a kernel compiled into two CUDA objects runs, whichever
// object launches it, from one of them, with that object's copy of the device tables
// (device_tables.cuh). Seen on an H200: perft --stats ran the node-count object's
// for_each_index_kernel<GenerateChildren>, whose tables no one had uploaded, and counted a
// fifth of Kiwipete's perft 5. The test cuda_kernels_in_one_object keeps it so.
#include "pipeline_cuda_worker.cuh"

namespace perftkit::cuda {

template pipeline::BatchResults<pipeline::CountNodes> count_batches_pipeline<pipeline::CountNodes>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);
template pipeline::BatchResults<pipeline::CountStats> count_batches_pipeline<pipeline::CountStats>(
    const std::vector<FrontierNode>&, const std::vector<pipeline::BatchSpan>&, int, const PipelineOptions&);

}  // namespace perftkit::cuda
