#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/OptimizerKernels.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename T, typename G>
__global__ void sgd_update_kernel(std::int64_t count, math::SgdConstants<T> k, T* parameter,
                                  const G* gradient, T* velocity, const float* skip_if_overflow) {
    if (math::update_skipped(skip_if_overflow)) {
        return;
    }
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::sgd_step(k, parameter[i], static_cast<T>(math::load(gradient[i])), velocity[i]);
    }
}

template <typename T, typename G>
__global__ void adam_update_kernel(std::int64_t count, math::AdamConstants<T> k, T* parameter,
                                   const G* gradient, T* first_moment, T* second_moment,
                                   const float* skip_if_overflow) {
    if (math::update_skipped(skip_if_overflow)) {
        return;
    }
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::adam_step(k, parameter[i], static_cast<T>(math::load(gradient[i])), first_moment[i],
                        second_moment[i]);
    }
}

}  // namespace

template <typename T, typename G>
void sgd_update(cudaStream_t stream, std::int64_t count, const math::SgdConstants<T>& constants,
                T* parameter, const G* gradient, T* velocity, const float* skip_if_overflow) {
    sgd_update_kernel<T, G><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, velocity, skip_if_overflow);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T, typename G>
void adam_update(cudaStream_t stream, std::int64_t count, const math::AdamConstants<T>& constants,
                 T* parameter, const G* gradient, T* first_moment, T* second_moment,
                 const float* skip_if_overflow) {
    adam_update_kernel<T, G><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, first_moment, second_moment, skip_if_overflow);
    TS_CUDA_CHECK_LAUNCH();
}

#define TS_INSTANTIATE_OPTIMIZERS(T, G)                                                            \
    template void sgd_update<T, G>(cudaStream_t, std::int64_t, const math::SgdConstants<T>&, T*,   \
                                   const G*, T*, const float*);                                    \
    template void adam_update<T, G>(cudaStream_t, std::int64_t, const math::AdamConstants<T>&, T*, \
                                    const G*, T*, T*, const float*);
TS_INSTANTIATE_OPTIMIZERS(float, float)
TS_INSTANTIATE_OPTIMIZERS(float, math::Fp16)
TS_INSTANTIATE_OPTIMIZERS(float, math::Bf16)
TS_INSTANTIATE_OPTIMIZERS(double, double)
#undef TS_INSTANTIATE_OPTIMIZERS

}  // namespace trainscope::workloads::cuda::kernels
