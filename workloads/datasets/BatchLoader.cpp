#include "workloads/datasets/BatchLoader.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

BatchLoader::BatchLoader(const ImageSource& source, std::int64_t batch, bool shuffle,
                         std::uint64_t seed, BatchPlacement placement)
    : source_(source),
      batch_(batch),
      shuffle_(shuffle),
      placement_(placement),
      engine_(seed ^ 0xda7a5e7ULL),
      order_(static_cast<std::size_t>(source.size())) {
    std::iota(order_.begin(), order_.end(), std::int64_t{0});
    for (std::size_t v = 0; v < scale_.size(); ++v) {
        scale_[v] = static_cast<double>(v) / 255.0;
    }
    // gather_rows takes i32 sample indices.
    if (placement_ == BatchPlacement::resident &&
        source.size() > std::numeric_limits<std::int32_t>::max()) {
        throw ConfigError("placement: resident supports at most 2^31-1 samples; the dataset has " +
                          std::to_string(source.size()) + "; use placement=stream");
    }
}

std::int64_t BatchLoader::batches_per_epoch() const {
    const std::int64_t n = source_.size();
    return shuffle_ ? n / batch_ : (n + batch_ - 1) / batch_;
}

void BatchLoader::start_epoch() {
    if (!shuffle_) {
        return;
    }
    // Fisher-Yates with our own index draw: the same order on every standard library.
    for (std::size_t i = order_.size(); i > 1; --i) {
        const std::size_t j = static_cast<std::size_t>(engine_() % i);
        std::swap(order_[i - 1], order_[j]);
    }
}

template <typename T>
void BatchLoader::stage_images(std::span<const std::int64_t> samples, T* out) {
    const auto pixels = static_cast<std::size_t>(source_.image_shape().elements());
    pixels_.resize(pixels);
    staged_labels_.resize(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        source_.read_pixels(samples[i], pixels_.data());
        T* image = out + i * pixels;
        for (std::size_t p = 0; p < pixels; ++p) {
            image[p] = static_cast<T>(scale_[pixels_[p]]);
        }
        staged_labels_[i] = source_.label(samples[i]);
    }
}

template <typename T>
void BatchLoader::upload_images(StepContext& context, std::span<const std::int64_t> samples,
                                std::vector<T>& staging, Tensor& images) {
    staging.resize(static_cast<std::size_t>(images.elements()));
    stage_images(samples, staging.data());
    context.backend.copy_from_host(staging.data(), images);
}

Batch BatchLoader::load_streamed(StepContext& context, std::span<const std::int64_t> samples) {
    const auto count = static_cast<std::int64_t>(samples.size());
    Batch batch;
    batch.images =
        context.make_master(source_.image_shape().with_batch(count), TensorClass::input_batch);
    if (batch.images.dtype() == DType::f64) {
        upload_images(context, samples, staged_f64_, batch.images);
    } else {
        upload_images(context, samples, staged_f32_, batch.images);
    }
    batch.labels = context.tensors.allocate(Shape{count}, DType::i32, TensorClass::input_batch);
    context.backend.copy_from_host(staged_labels_.data(), batch.labels);
    return batch;
}

void BatchLoader::make_resident(StepContext& context) {
    std::vector<std::int64_t> all(static_cast<std::size_t>(source_.size()));
    std::iota(all.begin(), all.end(), std::int64_t{0});
    resident_ = load_streamed(context, all);
    // The host copy of the whole dataset is not needed again: give its memory back.
    staged_f32_ = {};
    staged_f64_ = {};
    staged_labels_ = {};
}

void BatchLoader::prepare(StepContext& context) {
    if (placement_ == BatchPlacement::resident && !resident_.images.raw()) {
        make_resident(context);
    }
}

Batch BatchLoader::load_resident(StepContext& context, std::span<const std::int64_t> samples) {
    prepare(context);
    const auto count = static_cast<std::int64_t>(samples.size());
    staged_indices_.resize(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        staged_indices_[i] = static_cast<std::int32_t>(samples[i]);  // < 2^31, see constructor
    }
    Tensor indices = context.tensors.allocate(Shape{count}, DType::i32, TensorClass::input_batch);
    context.backend.copy_from_host(staged_indices_.data(), indices);
    Batch batch;
    batch.images =
        context.make_master(source_.image_shape().with_batch(count), TensorClass::input_batch);
    context.backend.gather_rows(resident_.images, indices, batch.images);
    batch.labels = context.tensors.allocate(Shape{count}, DType::i32, TensorClass::input_batch);
    context.backend.gather_rows(resident_.labels, indices, batch.labels);
    return batch;
}

Batch BatchLoader::load(StepContext& context, std::int64_t batch_index) {
    std::int64_t first = batch_index * batch_;
    std::int64_t count = std::min(batch_, source_.size() - first);
    if (shard_) {
        first += shard_->begin;
        count = std::clamp<std::int64_t>(count - shard_->begin, 0, shard_->count);
    }
    const std::span<const std::int64_t> samples(order_.data() + first,
                                                static_cast<std::size_t>(count));
    return placement_ == BatchPlacement::resident ? load_resident(context, samples)
                                                  : load_streamed(context, samples);
}

}  // namespace trainscope::workloads
