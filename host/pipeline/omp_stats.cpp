// Leaf statistics of the pipeline on the OpenMP system, in a translation unit of its own.
#include "pipeline/omp_system.hpp"

namespace perftkit::pipeline {

template BatchResults<CountStats> count_batches_omp<CountStats>(const std::vector<FrontierNode>&,
                                                                const std::vector<BatchSpan>&, int,
                                                                const PipelineOptions&);

}  // namespace perftkit::pipeline
