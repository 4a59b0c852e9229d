#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

namespace trainscope::workloads::cuda::kernels {

// adam_update for a step captured into a CUDA graph: the constants are read from device
// memory (StepGraph refreshes them before every launch) instead of being kernel
// arguments, which a graph would freeze. Same per-element math (math::adam_step) and the
// same types and the same skip flag as adam_update: T the master type, G the gradient's
// storage type.
template <typename T, typename G>
void adam_update_device_constants(cudaStream_t stream, std::int64_t count,
                                  const math::AdamConstants<T>* constants, T* parameter,
                                  const G* gradient, T* first_moment, T* second_moment,
                                  const float* skip_if_overflow);

// Launches every instantiation over zero elements. With lazy loading (the CUDA 12.2+
// default) a kernel's code is loaded at its first launch; drivers older than CUDA 12.3
// cannot load inside a capture, and newer ones would put the one-time load into the
// captured step's time. These kernels are first needed there, so the backend loads them
// before. `constants` must point at readable device memory (the kernels read it first).
void load_captured_optimizer_kernels(cudaStream_t stream, const void* constants);

}  // namespace trainscope::workloads::cuda::kernels
