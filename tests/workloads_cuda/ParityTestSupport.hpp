#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "workloads/backend/Backend.hpp"
#include "workloads/memory/TensorAllocator.hpp"
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

// Whether `tensor` holds no inf or NaN, through the engine's overflow check: a fresh f32
// flag, zeroed, flag_non_finite, read back.
inline bool all_finite(Backend& backend, TensorAllocator& tensors, const Tensor& tensor) {
    Tensor flag = tensors.allocate(Shape{1}, DType::f32);
    backend.fill(flag, 0.0);
    backend.flag_non_finite(tensor, flag);
    float overflow = -1.0f;
    backend.copy_to_host(flag, &overflow);
    return overflow == 0.0f;
}

// A tensor's values as f32 on the host: f32 tensors copied as they are, 16-bit ones first
// widened exactly on the backend (convert into a fresh f32 tensor from `tensors`).
inline std::vector<float> read_as_f32(Backend& backend, TensorAllocator& tensors,
                                      const Tensor& tensor) {
    std::vector<float> values(static_cast<std::size_t>(tensor.elements()));
    if (tensor.dtype() == DType::f32) {
        backend.copy_to_host(tensor, values.data());
        return values;
    }
    Tensor wide = tensors.allocate(tensor.shape(), DType::f32);
    backend.convert(tensor, wide);
    backend.copy_to_host(wide, values.data());
    return values;
}

// The same values on both backends: `cpu` the reference (or the CPU's emulation of a
// 16-bit precision), `gpu` the tensor under test.
struct TensorPair {
    Tensor cpu;
    Tensor gpu;
};

}  // namespace trainscope::workloads::parity
