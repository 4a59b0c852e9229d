#include "workloads/backends/cuda/kernels/CapturedOptimizerKernels.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename T>
__global__ void adam_update_device_constants_kernel(std::int64_t count,
                                                    const math::AdamConstants<T>* constants,
                                                    T* parameter, const T* gradient,
                                                    T* first_moment, T* second_moment) {
    const math::AdamConstants<T> k = *constants;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::adam_step(k, parameter[i], gradient[i], first_moment[i], second_moment[i]);
    }
}

}  // namespace

template <typename T>
void adam_update_device_constants(cudaStream_t stream, std::int64_t count,
                                  const math::AdamConstants<T>* constants, T* parameter,
                                  const T* gradient, T* first_moment, T* second_moment) {
    adam_update_device_constants_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, first_moment, second_moment);
    TS_CUDA_CHECK_LAUNCH();
}

void load_captured_optimizer_kernels(cudaStream_t stream, const void* constants) {
    adam_update_device_constants<float>(stream, 0,
                                        static_cast<const math::AdamConstants<float>*>(constants),
                                        nullptr, nullptr, nullptr, nullptr);
    adam_update_device_constants<double>(stream, 0,
                                         static_cast<const math::AdamConstants<double>*>(constants),
                                         nullptr, nullptr, nullptr, nullptr);
}

template void adam_update_device_constants<float>(cudaStream_t, std::int64_t,
                                                  const math::AdamConstants<float>*, float*,
                                                  const float*, float*, float*);
template void adam_update_device_constants<double>(cudaStream_t, std::int64_t,
                                                   const math::AdamConstants<double>*, double*,
                                                   const double*, double*, double*);

}  // namespace trainscope::workloads::cuda::kernels
