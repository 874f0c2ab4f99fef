// Batch classification on the GPU: the positions of a block go up, one thread classifies
// each with the core's classify() (ClassifyFunctor), the results come back.
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "common/cuda_devices.hpp"
#include "cuda_check.hpp"
#include "classify/cuda_classify.hpp"
#include "device_memory.hpp"
#include "device_tables.cuh"
#include "for_each_index.cuh"

namespace perftkit::cuda {
namespace {

class DeviceBatchClassifier final : public BatchClassifier {
 public:
  explicit DeviceBatchClassifier(int device) : device_(device) {
    if (device < 0 || device >= device_count())
      throw std::runtime_error("classify: no CUDA device " + std::to_string(device));
    ensure_device_tables(device);  // also makes the device current
    stream_.emplace();
  }

  void classify(std::span<const Position> positions, std::span<const std::uint8_t> repetitions,
                std::span<Classification> out) override {
    if (out.size() != positions.size() || (!repetitions.empty() && repetitions.size() != positions.size()))
      throw std::invalid_argument("classify batch: the spans differ in size");
    const std::size_t n = positions.size();
    if (n == 0) return;
    PERFTKIT_CUDA_CHECK(cudaSetDevice(device_));
    reserve(n);
    const cudaStream_t stream = stream_->get();
    positions_.upload_async(positions.data(), n, stream);
    if (!repetitions.empty()) repetitions_.upload_async(repetitions.data(), n, stream);
    for_each_index_async(
        n, ClassifyFunctor{positions_.data(), repetitions.empty() ? nullptr : repetitions_.data(), results_.data()},
        stream);
    results_.download_async(out.data(), n, stream);
    PERFTKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  // Buffers for n positions, grown by half again so that slowly growing batches reallocate rarely.
  void reserve(std::size_t n) {
    if (positions_.size() >= n) return;
    const std::size_t capacity = n + n / 2;
    positions_ = DeviceBuffer<Position>(capacity);
    repetitions_ = DeviceBuffer<std::uint8_t>(capacity);
    results_ = DeviceBuffer<Classification>(capacity);
  }

  int device_;
  std::optional<Stream> stream_;
  DeviceBuffer<Position> positions_;
  DeviceBuffer<std::uint8_t> repetitions_;
  DeviceBuffer<Classification> results_;
};

}  // namespace

std::unique_ptr<BatchClassifier> make_batch_classifier(int device) {
  return std::make_unique<DeviceBatchClassifier>(device);
}

}  // namespace perftkit::cuda
