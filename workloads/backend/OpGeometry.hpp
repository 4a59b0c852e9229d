#pragma once

#include <cstdint>

namespace trainscope::workloads {

// Stride and zero padding of a 2-D convolution; the kernel size comes from the filter
// tensor [out_channels, in_channels, kernel_h, kernel_w].
struct Conv2dGeometry {
    int stride = 1;
    int padding = 0;
};

// Square pooling window.
struct Pool2dGeometry {
    int window = 2;
    int stride = 2;
    int padding = 0;
};

// Output extent of a convolution or pooling window; 0 when the window does not fit.
constexpr std::int64_t conv_output_extent(std::int64_t input, std::int64_t kernel, int stride,
                                          int padding) {
    const std::int64_t span = input + 2 * padding - kernel;
    return span < 0 ? 0 : span / stride + 1;
}

struct AdamSettings {
    double learning_rate = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    std::int64_t step = 1;  // 1-based, for bias correction
};

struct SgdSettings {
    double learning_rate = 0.01;
    double momentum = 0.9;
    double weight_decay = 0.0;
};

struct BatchNormSettings {
    double momentum = 0.1;  // running = (1 - momentum) * running + momentum * batch
    double epsilon = 1e-5;
};

// Sums over a batch from softmax cross-entropy, kept as doubles so evaluation over a
// whole test set does not lose counts.
struct CrossEntropyTotals {
    double loss_sum = 0.0;
    std::int64_t correct = 0;
    std::int64_t count = 0;
};

}  // namespace trainscope::workloads
