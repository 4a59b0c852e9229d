#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "workloads/datasets/ImageSource.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

struct Batch {
    Tensor images;  // [n, C, H, W] in [0, 1]
    Tensor labels;  // [n] i32
};

// Cuts a source into batches and copies them into backend tensors. Training order is a
// permutation drawn from the seed and redrawn each epoch; the last partial batch of a
// shuffled epoch is dropped (every step has the same shape), while an unshuffled pass
// (evaluation) covers every sample. Host staging buffers grow once and are reused.
class BatchLoader {
  public:
    BatchLoader(const ImageSource& source, std::int64_t batch, bool shuffle, std::uint64_t seed);

    std::int64_t batches_per_epoch() const;
    void start_epoch();
    Batch load(StepContext& context, std::int64_t batch_index);

  private:
    template <typename T>
    void stage_images(std::int64_t first, std::int64_t count, T* out);

    const ImageSource& source_;
    std::int64_t batch_;
    bool shuffle_;
    std::mt19937_64 engine_;
    std::vector<std::int64_t> order_;
    std::vector<std::uint8_t> pixels_;
    std::vector<float> staged_f32_;
    std::vector<double> staged_f64_;
    std::vector<std::int32_t> staged_labels_;
    std::array<double, 256> scale_{};
};

}  // namespace trainscope::workloads
