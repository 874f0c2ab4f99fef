// Batch classification on a CUDA device. Host-safe: no CUDA syntax, no CUDA headers.
#pragma once

#include <memory>

#include "classify/batch.hpp"

namespace perftkit::cuda {

/// A classifier that runs perftkit/classify.hpp's ClassifyFunctor over each batch on
/// `device`, on a stream of its own (one per classifier, so that several host threads can
/// each drive one). Device buffers grow to the largest batch and are kept. classify()
/// waits for the device and throws CudaError on a CUDA failure. Throws std::runtime_error
/// here when the device does not exist.
std::unique_ptr<BatchClassifier> make_batch_classifier(int device);

}  // namespace perftkit::cuda
