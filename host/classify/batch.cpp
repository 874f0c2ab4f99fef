#include "classify/batch.hpp"

#include <stdexcept>

namespace perftkit {
namespace {

class CpuBatchClassifier final : public BatchClassifier {
 public:
  void classify(std::span<const Position> positions, std::span<const std::uint8_t> repetitions,
                std::span<Classification> out) override {
    if (out.size() != positions.size() || (!repetitions.empty() && repetitions.size() != positions.size()))
      throw std::invalid_argument("classify batch: the spans differ in size");
    const ClassifyFunctor body{positions.data(), repetitions.empty() ? nullptr : repetitions.data(), out.data()};
    for (std::uint64_t i = 0; i < positions.size(); ++i) body(i);
  }
};

}  // namespace

std::unique_ptr<BatchClassifier> make_cpu_batch_classifier() { return std::make_unique<CpuBatchClassifier>(); }

}  // namespace perftkit
