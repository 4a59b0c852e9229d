#pragma once

#include "workloads/numerics/HostDevice.hpp"

// Per-element math of the CUDA kernels, written once for the device and for the CPU
// tests that compare it with the CPU backend.
namespace trainscope::workloads::cuda::math {

template <typename T>
TS_HD inline T relu(T x) {
    return x > T(0) ? x : T(0);
}

// dx = dy where the forward output was positive.
template <typename T>
TS_HD inline T relu_gradient(T y, T dy) {
    return y > T(0) ? dy : T(0);
}

}  // namespace trainscope::workloads::cuda::math
