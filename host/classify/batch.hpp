// Classifying positions a batch at a time: the GPU's way (host/classify/cuda_classify.hpp launches
// the ClassifyFunctor of perftkit/classify.hpp over a batch), with a CPU twin that runs the
// same functor in a loop, so that the batched path is tested on any machine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "perftkit/classify.hpp"

namespace perftkit {

class BatchClassifier {
 public:
  virtual ~BatchClassifier() = default;

  // out[i] = classify(positions[i], repetitions[i]) for every i; repetitions is empty when
  // no position has a history. The spans have equal sizes (repetitions: equal or empty).
  virtual void classify(std::span<const Position> positions, std::span<const std::uint8_t> repetitions,
                        std::span<Classification> out) = 0;
};

// The CPU twin: the functor over the batch on the calling thread.
std::unique_ptr<BatchClassifier> make_cpu_batch_classifier();

// Makes the batch classifier of one worker (worker 0, 1, ...), e.g. on a GPU of its own.
using BatchClassifierFactory = std::function<std::unique_ptr<BatchClassifier>(unsigned worker)>;

// The classifiers of `classify --backend cuda`: worker k gets one on GPU k mod the device
// count. Throws UsageError when no CUDA device is there (or the build has no CUDA). One
// implementation a build, chosen by host/classify/CMakeLists.txt: gpu_batch_cuda.cpp or
// gpu_batch_none.cpp.
BatchClassifierFactory gpu_batch_classifiers();

}  // namespace perftkit
