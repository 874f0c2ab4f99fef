// gpu_batch_classifiers() in a build with CUDA (classify/batch.hpp).
#include "classify/batch.hpp"
#include "classify/cuda_classify.hpp"
#include "common/cuda_devices.hpp"
#include "common/errors.hpp"

namespace perftkit {

BatchClassifierFactory gpu_batch_classifiers() {
  const int devices = cuda::device_count();
  if (devices == 0) throw UsageError("--backend cuda: no CUDA device");
  return [devices](unsigned worker) { return cuda::make_batch_classifier(int(worker % unsigned(devices))); };
}

}  // namespace perftkit
