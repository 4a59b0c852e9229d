#include "workloads/backends/cpu/detail/LossKernels.hpp"

#include <cmath>

namespace trainscope::workloads::cpu {

template <typename T>
void softmax_cross_entropy(std::int64_t rows, std::int64_t classes, const T* logits,
                           const std::int32_t* labels, double loss_scale, T* dlogits,
                           CrossEntropyTotals& totals) {
    for (std::int64_t row = 0; row < rows; ++row) {
        const T* z = logits + row * classes;
        std::int64_t best = 0;
        for (std::int64_t j = 1; j < classes; ++j) {
            if (z[j] > z[best]) {
                best = j;
            }
        }
        const double max_logit = static_cast<double>(z[best]);
        double sum = 0.0;
        for (std::int64_t j = 0; j < classes; ++j) {
            sum += std::exp(static_cast<double>(z[j]) - max_logit);
        }
        const double log_sum = std::log(sum) + max_logit;
        const std::int32_t label = labels[row];
        totals.loss_sum += log_sum - static_cast<double>(z[label]);
        totals.correct += best == label ? 1 : 0;
        if (dlogits != nullptr) {
            const double scale = loss_scale / static_cast<double>(rows);
            T* g = dlogits + row * classes;
            for (std::int64_t j = 0; j < classes; ++j) {
                const double probability = std::exp(static_cast<double>(z[j]) - log_sum);
                g[j] = static_cast<T>((probability - (j == label ? 1.0 : 0.0)) * scale);
            }
        }
    }
    totals.count += rows;
}

template void softmax_cross_entropy<float>(std::int64_t, std::int64_t, const float*,
                                           const std::int32_t*, double, float*,
                                           CrossEntropyTotals&);
template void softmax_cross_entropy<double>(std::int64_t, std::int64_t, const double*,
                                            const std::int32_t*, double, double*,
                                            CrossEntropyTotals&);

}  // namespace trainscope::workloads::cpu
