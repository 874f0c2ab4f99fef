// The pipeline's CPU fallback for leaf statistics, in a translation unit of its own.
#include "pipeline/fallback.hpp"

namespace perftkit::pipeline {

template StatsTotals count_span_cpu<CountStats>(const std::vector<FrontierNode>&, BatchSpan, int, unsigned);

}  // namespace perftkit::pipeline
