#include "workloads/datasets/BatchLoader.hpp"

#include <numeric>

namespace trainscope::workloads {

BatchLoader::BatchLoader(const ImageSource& source, std::int64_t batch, bool shuffle,
                         std::uint64_t seed)
    : source_(source),
      batch_(batch),
      shuffle_(shuffle),
      engine_(seed ^ 0xda7a5e7ULL),
      order_(static_cast<std::size_t>(source.size())) {
    std::iota(order_.begin(), order_.end(), std::int64_t{0});
    for (std::size_t v = 0; v < scale_.size(); ++v) {
        scale_[v] = static_cast<double>(v) / 255.0;
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
void BatchLoader::stage_images(std::int64_t first, std::int64_t count, T* out) {
    const auto pixels = static_cast<std::size_t>(source_.image_shape().elements());
    pixels_.resize(pixels);
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t sample = order_[static_cast<std::size_t>(first + i)];
        source_.read_pixels(sample, pixels_.data());
        T* image = out + static_cast<std::size_t>(i) * pixels;
        for (std::size_t p = 0; p < pixels; ++p) {
            image[p] = static_cast<T>(scale_[pixels_[p]]);
        }
        staged_labels_[static_cast<std::size_t>(i)] = source_.label(sample);
    }
}

Batch BatchLoader::load(StepContext& context, std::int64_t batch_index) {
    const std::int64_t first = batch_index * batch_;
    const std::int64_t count = std::min(batch_, source_.size() - first);
    const Shape shape = source_.image_shape().with_batch(count);
    staged_labels_.resize(static_cast<std::size_t>(count));
    Batch batch;
    batch.images = context.make(shape);
    if (context.dtype == DType::f64) {
        staged_f64_.resize(static_cast<std::size_t>(shape.elements()));
        stage_images(first, count, staged_f64_.data());
        context.backend.copy_from_host(staged_f64_.data(), batch.images);
    } else {
        staged_f32_.resize(static_cast<std::size_t>(shape.elements()));
        stage_images(first, count, staged_f32_.data());
        context.backend.copy_from_host(staged_f32_.data(), batch.images);
    }
    batch.labels = context.tensors.allocate(Shape{count}, DType::i32);
    context.backend.copy_from_host(staged_labels_.data(), batch.labels);
    return batch;
}

}  // namespace trainscope::workloads
