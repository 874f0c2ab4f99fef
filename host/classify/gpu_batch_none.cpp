// gpu_batch_classifiers() in a build without CUDA (classify/batch.hpp).
#include "classify/batch.hpp"
#include "common/errors.hpp"

namespace perftkit {

BatchClassifierFactory gpu_batch_classifiers() {
  throw UsageError("--backend cuda: no CUDA device (this build has no CUDA backend)");
}

}  // namespace perftkit
