#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/PoolingKernels.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

__device__ inline std::int64_t first_index() {
    return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ inline std::int64_t grid_stride() {
    return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

template <typename T, bool kMax>
__global__ void pool_forward_kernel(std::int64_t count, math::PoolPlane d, const T* x, T* y) {
    const std::int64_t outputs = d.p * d.q;
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        const std::int64_t plane = i / outputs;
        const std::int64_t o = i % outputs;
        const T* in = x + plane * d.h * d.w;
        y[i] = math::store<T>(kMax ? math::max_pool_output(d, in, o / d.q, o % d.q)
                                   : math::avg_pool_output(d, in, o / d.q, o % d.q));
    }
}

template <typename T>
__global__ void max_pool_backward_kernel(std::int64_t count, math::PoolPlane d, const T* x,
                                         const T* dy, T* dx) {
    const std::int64_t inputs = d.h * d.w;
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        const std::int64_t plane = i / inputs;
        const std::int64_t e = i % inputs;
        dx[i] = math::store<T>(math::max_pool_input_gradient(
            d, x + plane * inputs, dy + plane * d.p * d.q, e / d.w, e % d.w));
    }
}

template <typename T>
__global__ void avg_pool_backward_kernel(std::int64_t count, math::PoolPlane d, const T* dy,
                                         T* dx) {
    const std::int64_t inputs = d.h * d.w;
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        const std::int64_t plane = i / inputs;
        const std::int64_t e = i % inputs;
        dx[i] = math::store<T>(
            math::avg_pool_input_gradient(d, dy + plane * d.p * d.q, e / d.w, e % d.w));
    }
}

}  // namespace

template <typename T>
void max_pool_forward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                      const T* x, T* y) {
    const std::int64_t count = planes * d.p * d.q;
    pool_forward_kernel<T, true>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, d, x, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void max_pool_backward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                       const T* x, const T* dy, T* dx) {
    const std::int64_t count = planes * d.h * d.w;
    max_pool_backward_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, d, x, dy, dx);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void avg_pool_forward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                      const T* x, T* y) {
    const std::int64_t count = planes * d.p * d.q;
    pool_forward_kernel<T, false>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, d, x, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void avg_pool_backward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                       const T* dy, T* dx) {
    const std::int64_t count = planes * d.h * d.w;
    avg_pool_backward_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, d, dy, dx);
    TS_CUDA_CHECK_LAUNCH();
}

#define TS_INSTANTIATE_POOLING(T)                                                          \
    template void max_pool_forward<T>(cudaStream_t, std::int64_t, const math::PoolPlane&,  \
                                      const T*, T*);                                       \
    template void max_pool_backward<T>(cudaStream_t, std::int64_t, const math::PoolPlane&, \
                                       const T*, const T*, T*);                            \
    template void avg_pool_forward<T>(cudaStream_t, std::int64_t, const math::PoolPlane&,  \
                                      const T*, T*);                                       \
    template void avg_pool_backward<T>(cudaStream_t, std::int64_t, const math::PoolPlane&, \
                                       const T*, T*);
TS_INSTANTIATE_POOLING(float)
TS_INSTANTIATE_POOLING(double)
TS_INSTANTIATE_POOLING(math::Fp16)
TS_INSTANTIATE_POOLING(math::Bf16)
#undef TS_INSTANTIATE_POOLING

}  // namespace trainscope::workloads::cuda::kernels
