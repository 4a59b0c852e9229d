#pragma once

#include <cmath>
#include <cstdint>

#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/numerics/HostDevice.hpp"

namespace trainscope::workloads::cuda::math {

// One row's softmax cross-entropy term and prediction.
struct CrossEntropyRow {
    double loss = 0.0;
    int correct = 0;
};

// Softmax cross-entropy of one row of logits, in double like the CPU backend; writes
// d(loss * loss_scale)/dz / rows into gradient when it is not null. T is a storage type:
// 16-bit logits are read exactly and the gradient is rounded to float, then to T, which
// is what the emulation does (the CPU backend writes f32, the engine then rounds).
template <typename T>
TS_HD inline CrossEntropyRow softmax_cross_entropy_row(const T* z, long long classes,
                                                       std::int32_t label, double gradient_scale,
                                                       T* gradient) {
    long long best = 0;
    for (long long j = 1; j < classes; ++j) {
        if (load(z[j]) > load(z[best])) {
            best = j;
        }
    }
    const double max_logit = static_cast<double>(load(z[best]));
    double sum = 0.0;
    for (long long j = 0; j < classes; ++j) {
        sum += std::exp(static_cast<double>(load(z[j])) - max_logit);
    }
    const double log_sum = std::log(sum) + max_logit;
    CrossEntropyRow row;
    row.loss = log_sum - static_cast<double>(load(z[label]));
    row.correct = best == label ? 1 : 0;
    if (gradient != nullptr) {
        for (long long j = 0; j < classes; ++j) {
            const double probability = std::exp(static_cast<double>(load(z[j])) - log_sum);
            gradient[j] = store<T>(static_cast<compute_t<T>>(
                (probability - (j == label ? 1.0 : 0.0)) * gradient_scale));
        }
    }
    return row;
}

}  // namespace trainscope::workloads::cuda::math
