#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads::parity {

// Normwise relative error: the largest absolute difference over the largest magnitude of
// the expected values (elementwise relative error would blow up near zeros).
template <typename T>
double relative_error(const std::vector<T>& actual, const std::vector<T>& expected) {
    double difference = 0.0;
    double scale = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        difference = std::max(difference, std::abs(static_cast<double>(actual[i]) -
                                                   static_cast<double>(expected[i])));
        scale = std::max(scale, std::abs(static_cast<double>(expected[i])));
    }
    return difference / std::max(scale, 1e-30);
}

// The same values on both backends: `cpu` the reference (or the CPU's emulation of a
// 16-bit precision), `gpu` the tensor under test.
struct TensorPair {
    Tensor cpu;
    Tensor gpu;
};

}  // namespace trainscope::workloads::parity
