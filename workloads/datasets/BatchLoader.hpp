#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "workloads/backend/MemoryStrategy.hpp"
#include "workloads/datasets/ImageSource.hpp"
#include "workloads/distributed/BatchShard.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

struct Batch {
    Tensor images;  // [n, C, H, W] in [0, 1], master dtype (StepContext::to_storage converts)
    Tensor labels;  // [n] i32
};

// Where a loader keeps the dataset (the `placement` axis). stream: each batch staged on
// the host and copied to the backend. resident: the whole converted dataset copied to the
// backend once; each batch is gathered there (Backend::gather_rows) by its sample indices.
using BatchPlacement = Placement;

// Cuts a source into batches and copies them into backend tensors. Training order is a
// permutation drawn from the seed and redrawn each epoch; the last partial batch of a
// shuffled epoch is dropped (every step has the same shape), while an unshuffled pass
// (evaluation) covers every sample. Host staging buffers grow once and are reused.
// Both placements convert pixels identically and draw the same order, so their batches
// are equal bit for bit; only the data path differs.
class BatchLoader {
  public:
    BatchLoader(const ImageSource& source, std::int64_t batch, bool shuffle, std::uint64_t seed,
                BatchPlacement placement = BatchPlacement::stream);

    std::int64_t batches_per_epoch() const;
    void start_epoch();
    // placement=resident: uploads the dataset now rather than at the first load, so the
    // upload is not timed as part of a training step; stream: nothing to do.
    void prepare(StepContext& context);
    Batch load(StepContext& context, std::int64_t batch_index);
    // Data parallelism: load() returns only these rows of each batch (the batch stays the
    // global one, so every rank draws the same order; shard_rows picks a rank's rows).
    void set_shard(RowRange rows) { shard_ = rows; }

  private:
    template <typename T>
    void stage_images(std::span<const std::int64_t> samples, T* out);
    template <typename T>
    void upload_images(StepContext& context, std::span<const std::int64_t> samples,
                       std::vector<T>& staging, Tensor& images);
    Batch load_streamed(StepContext& context, std::span<const std::int64_t> samples);
    Batch load_resident(StepContext& context, std::span<const std::int64_t> samples);
    // Copies every sample, in source order, into resident_ tensors (first resident load).
    void make_resident(StepContext& context);

    const ImageSource& source_;
    std::int64_t batch_;
    bool shuffle_;
    BatchPlacement placement_;
    std::mt19937_64 engine_;
    std::vector<std::int64_t> order_;
    std::vector<std::uint8_t> pixels_;
    std::vector<float> staged_f32_;
    std::vector<double> staged_f64_;
    std::vector<std::int32_t> staged_labels_;
    std::vector<std::int32_t> staged_indices_;
    Batch resident_;  // placement=resident: the whole dataset on the backend
    std::array<double, 256> scale_{};
    std::optional<RowRange> shard_;
};

}  // namespace trainscope::workloads
