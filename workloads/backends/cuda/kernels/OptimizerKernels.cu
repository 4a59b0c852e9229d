#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/OptimizerKernels.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename T>
__global__ void sgd_update_kernel(std::int64_t count, math::SgdConstants<T> k, T* parameter,
                                  const T* gradient, T* velocity) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::sgd_step(k, parameter[i], gradient[i], velocity[i]);
    }
}

template <typename T>
__global__ void adam_update_kernel(std::int64_t count, math::AdamConstants<T> k, T* parameter,
                                   const T* gradient, T* first_moment, T* second_moment) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::adam_step(k, parameter[i], gradient[i], first_moment[i], second_moment[i]);
    }
}

}  // namespace

template <typename T>
void sgd_update(cudaStream_t stream, std::int64_t count, const math::SgdConstants<T>& constants,
                T* parameter, const T* gradient, T* velocity) {
    sgd_update_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, velocity);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void adam_update(cudaStream_t stream, std::int64_t count, const math::AdamConstants<T>& constants,
                 T* parameter, const T* gradient, T* first_moment, T* second_moment) {
    adam_update_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, first_moment, second_moment);
    TS_CUDA_CHECK_LAUNCH();
}

template void sgd_update<float>(cudaStream_t, std::int64_t, const math::SgdConstants<float>&,
                                float*, const float*, float*);
template void sgd_update<double>(cudaStream_t, std::int64_t, const math::SgdConstants<double>&,
                                 double*, const double*, double*);
template void adam_update<float>(cudaStream_t, std::int64_t, const math::AdamConstants<float>&,
                                 float*, const float*, float*, float*);
template void adam_update<double>(cudaStream_t, std::int64_t, const math::AdamConstants<double>&,
                                  double*, const double*, double*, double*);

}  // namespace trainscope::workloads::cuda::kernels
