#include "workloads/backends/cuda/kernels/CapturedOptimizerKernels.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename T, typename G>
__global__ void adam_update_device_constants_kernel(std::int64_t count,
                                                    const math::AdamConstants<T>* constants,
                                                    T* parameter, const G* gradient,
                                                    T* first_moment, T* second_moment,
                                                    const float* skip_if_overflow) {
    if (math::update_skipped(skip_if_overflow)) {
        return;
    }
    const math::AdamConstants<T> k = *constants;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        math::adam_step(k, parameter[i], static_cast<T>(math::load(gradient[i])), first_moment[i],
                        second_moment[i]);
    }
}

template <typename T, typename G>
void load_one(cudaStream_t stream, const void* constants) {
    adam_update_device_constants<T, G>(stream, 0,
                                       static_cast<const math::AdamConstants<T>*>(constants),
                                       nullptr, nullptr, nullptr, nullptr, nullptr);
}

}  // namespace

template <typename T, typename G>
void adam_update_device_constants(cudaStream_t stream, std::int64_t count,
                                  const math::AdamConstants<T>* constants, T* parameter,
                                  const G* gradient, T* first_moment, T* second_moment,
                                  const float* skip_if_overflow) {
    adam_update_device_constants_kernel<T, G><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
        count, constants, parameter, gradient, first_moment, second_moment, skip_if_overflow);
    TS_CUDA_CHECK_LAUNCH();
}

void load_captured_optimizer_kernels(cudaStream_t stream, const void* constants) {
    load_one<float, float>(stream, constants);
    load_one<float, math::Fp16>(stream, constants);
    load_one<float, math::Bf16>(stream, constants);
    load_one<double, double>(stream, constants);
}

#define TS_INSTANTIATE_CAPTURED_ADAM(T, G)                                                        \
    template void adam_update_device_constants<T, G>(cudaStream_t, std::int64_t,                  \
                                                     const math::AdamConstants<T>*, T*, const G*, \
                                                     T*, T*, const float*);
TS_INSTANTIATE_CAPTURED_ADAM(float, float)
TS_INSTANTIATE_CAPTURED_ADAM(float, math::Fp16)
TS_INSTANTIATE_CAPTURED_ADAM(float, math::Bf16)
TS_INSTANTIATE_CAPTURED_ADAM(double, double)
#undef TS_INSTANTIATE_CAPTURED_ADAM

}  // namespace trainscope::workloads::cuda::kernels
