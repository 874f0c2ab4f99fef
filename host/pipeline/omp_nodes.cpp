// Node counts (and the subtree mode) of the pipeline on the OpenMP system, in a translation
// unit of its own.
#include "pipeline/omp_system.hpp"

namespace perftkit::pipeline {

template BatchResults<CountNodes> count_batches_omp<CountNodes>(const std::vector<FrontierNode>&,
                                                                const std::vector<BatchSpan>&, int,
                                                                const PipelineOptions&);

}  // namespace perftkit::pipeline

namespace perftkit {

const char* pipeline_host_system() noexcept { return pipeline::HOST_SYSTEM_NAME; }

}  // namespace perftkit
