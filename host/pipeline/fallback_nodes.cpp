// The pipeline's CPU fallback for node counts, in a translation unit of its own.
#include "pipeline/fallback.hpp"

namespace perftkit::pipeline {

template u128 count_span_cpu<CountNodes>(const std::vector<FrontierNode>&, BatchSpan, int, unsigned);

}  // namespace perftkit::pipeline
