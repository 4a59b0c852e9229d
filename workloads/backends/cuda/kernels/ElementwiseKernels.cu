#include <cmath>

#include "workloads/backends/cuda/kernels/ElementwiseKernels.hpp"
#include "workloads/backends/cuda/kernels/ElementwiseMath.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/numerics/Rounding.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

__device__ inline std::int64_t first_index() {
    return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ inline std::int64_t grid_stride() {
    return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

template <typename T>
__global__ void fill_kernel(std::int64_t count, T value, T* y) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        y[i] = value;
    }
}

// T is the storage type; math runs in math::compute_t<T> (float for fp16/bf16).
template <typename T>
__global__ void relu_forward_kernel(std::int64_t count, const T* x, T* y) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        y[i] = math::store<T>(math::relu(math::load(x[i])));
    }
}

template <typename T>
__global__ void relu_backward_kernel(std::int64_t count, const T* y, const T* dy, T* dx) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        dx[i] = math::store<T>(math::relu_gradient(math::load(y[i]), math::load(dy[i])));
    }
}

template <typename T>
__global__ void add_kernel(std::int64_t count, const T* a, const T* b, T* y) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        y[i] = math::store<T>(math::load(a[i]) + math::load(b[i]));
    }
}

template <typename T>
__global__ void add_bias_kernel(std::int64_t count, std::int64_t channels, std::int64_t inner, T* y,
                                const T* bias) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        y[i] = math::store<T>(math::load(y[i]) +
                              math::load(bias[math::channel_of(i, channels, inner)]));
    }
}

// One block per channel: each thread sums a strided share, then a tree in shared memory.
template <typename T>
__global__ void bias_backward_kernel(std::int64_t outer, std::int64_t channels, std::int64_t inner,
                                     const T* dy, T* dbias) {
    using C = math::compute_t<T>;
    __shared__ C partial[kThreadsPerBlock];
    const std::int64_t channel = blockIdx.x;
    const std::int64_t per_channel = outer * inner;
    C sum = 0;
    for (std::int64_t k = threadIdx.x; k < per_channel; k += blockDim.x) {
        const std::int64_t o = k / inner;
        const std::int64_t j = k % inner;
        sum += math::load(dy[(o * channels + channel) * inner + j]);
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            partial[threadIdx.x] += partial[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        dbias[channel] = math::store<T>(partial[0]);
    }
}

// One thread per plane, summing in order like the CPU backend.
template <typename T>
__global__ void global_avg_pool_forward_kernel(std::int64_t planes, std::int64_t area, const T* x,
                                               T* y) {
    for (std::int64_t plane = first_index(); plane < planes; plane += grid_stride()) {
        using C = math::compute_t<T>;
        const T* in = x + plane * area;
        C sum = 0;
        for (std::int64_t j = 0; j < area; ++j) {
            sum += math::load(in[j]);
        }
        y[plane] = math::store<T>(sum / static_cast<C>(area));
    }
}

template <typename T>
__global__ void global_avg_pool_backward_kernel(std::int64_t count, std::int64_t area, const T* dy,
                                                T* dx) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        using C = math::compute_t<T>;
        dx[i] = math::store<T>(math::load(dy[i / area]) / static_cast<C>(area));
    }
}

__global__ void round_to_fp16_kernel(std::int64_t count, float* values) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        values[i] = numerics::round_to_fp16(values[i]);
    }
}

__global__ void round_to_bf16_kernel(std::int64_t count, float* values) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        values[i] = numerics::round_to_bf16(values[i]);
    }
}

template <typename T>
__global__ void flag_non_finite_kernel(std::int64_t count, const T* values, float* flag) {
    for (std::int64_t i = first_index(); i < count; i += grid_stride()) {
        if (!math::element_is_finite(values[i])) {
            *flag = 1.0f;  // every writer stores the same value: no atomic needed
        }
    }
}

}  // namespace

template <typename T>
void fill(cudaStream_t stream, std::int64_t count, T value, T* y) {
    fill_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, value, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void relu_forward(cudaStream_t stream, std::int64_t count, const T* x, T* y) {
    relu_forward_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, x, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void relu_backward(cudaStream_t stream, std::int64_t count, const T* y, const T* dy, T* dx) {
    relu_backward_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, y, dy, dx);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void add(cudaStream_t stream, std::int64_t count, const T* a, const T* b, T* y) {
    add_kernel<T><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, a, b, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void add_bias(cudaStream_t stream, std::int64_t outer, std::int64_t channels, std::int64_t inner,
              T* y, const T* bias) {
    const std::int64_t count = outer * channels * inner;
    add_bias_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, channels, inner, y, bias);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void bias_backward(cudaStream_t stream, std::int64_t outer, std::int64_t channels,
                   std::int64_t inner, const T* dy, T* dbias) {
    if (channels == 0) {
        return;  // a grid of zero blocks is an invalid configuration
    }
    bias_backward_kernel<T><<<static_cast<unsigned int>(channels), kThreadsPerBlock, 0, stream>>>(
        outer, channels, inner, dy, dbias);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void global_avg_pool_forward(cudaStream_t stream, std::int64_t planes, std::int64_t area,
                             const T* x, T* y) {
    global_avg_pool_forward_kernel<T>
        <<<blocks_for(planes), kThreadsPerBlock, 0, stream>>>(planes, area, x, y);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void global_avg_pool_backward(cudaStream_t stream, std::int64_t planes, std::int64_t area,
                              const T* dy, T* dx) {
    const std::int64_t count = planes * area;
    global_avg_pool_backward_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, area, dy, dx);
    TS_CUDA_CHECK_LAUNCH();
}

void round_storage(cudaStream_t stream, std::int64_t count, float* values,
                   StorageRounding rounding) {
    if (rounding == StorageRounding::fp16) {
        round_to_fp16_kernel<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, values);
        TS_CUDA_CHECK_LAUNCH();
    } else if (rounding == StorageRounding::bf16) {
        round_to_bf16_kernel<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, values);
        TS_CUDA_CHECK_LAUNCH();
    }
}

template <typename T>
void flag_non_finite(cudaStream_t stream, std::int64_t count, const T* values, float* overflow) {
    flag_non_finite_kernel<T>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, values, overflow);
    TS_CUDA_CHECK_LAUNCH();
}

#define TS_INSTANTIATE_ELEMENTWISE(T)                                                             \
    template void fill<T>(cudaStream_t, std::int64_t, T, T*);                                     \
    template void relu_forward<T>(cudaStream_t, std::int64_t, const T*, T*);                      \
    template void relu_backward<T>(cudaStream_t, std::int64_t, const T*, const T*, T*);           \
    template void add<T>(cudaStream_t, std::int64_t, const T*, const T*, T*);                     \
    template void add_bias<T>(cudaStream_t, std::int64_t, std::int64_t, std::int64_t, T*,         \
                              const T*);                                                          \
    template void bias_backward<T>(cudaStream_t, std::int64_t, std::int64_t, std::int64_t,        \
                                   const T*, T*);                                                 \
    template void global_avg_pool_forward<T>(cudaStream_t, std::int64_t, std::int64_t, const T*,  \
                                             T*);                                                 \
    template void global_avg_pool_backward<T>(cudaStream_t, std::int64_t, std::int64_t, const T*, \
                                              T*);                                                \
    template void flag_non_finite<T>(cudaStream_t, std::int64_t, const T*, float*);
TS_INSTANTIATE_ELEMENTWISE(float)
TS_INSTANTIATE_ELEMENTWISE(double)
TS_INSTANTIATE_ELEMENTWISE(math::Fp16)
TS_INSTANTIATE_ELEMENTWISE(math::Bf16)
#undef TS_INSTANTIATE_ELEMENTWISE
template void fill<std::int32_t>(cudaStream_t, std::int64_t, std::int32_t, std::int32_t*);

}  // namespace trainscope::workloads::cuda::kernels
