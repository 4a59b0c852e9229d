#include <algorithm>
#include <cmath>
#include <cstdint>

#include "workloads/backends/cuda/kernels/ChannelReduction.cuh"
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

// Element-wise over the whole tensor; the channel of each element by additions
// (math::FlatChannelWalk), no division per element.
template <typename T, typename I>
__global__ void add_bias_kernel(I count, math::FlatChannelWalk<I> w, T* y, const T* bias) {
    I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    math::FlatChannelCursor<I> at = math::flat_channel_cursor(w, i);
    for (; i < count; i += w.stride) {
        y[i] = math::store<T>(math::load(y[i]) + math::load(bias[at.channel]));
        math::advance(at, w);
    }
}

// First stage of dbias, block (slice, channel): the slice's sum (ChannelReductionMath.hpp's
// order) into partials[channel][slice].
template <typename T, typename I>
__global__ void __launch_bounds__(math::kSliceThreads)
    bias_backward_slices_kernel(math::ChannelWalk<I> w, const T* dy, math::compute_t<T>* partials) {
    using C = math::compute_t<T>;
    __shared__ C shared[math::kSliceThreads];
    const long long slice = blockIdx.x;
    for (I channel = blockIdx.y; channel < w.channels; channel += gridDim.y) {
        C sum = 0;
        math::visit_slice_thread(w, slice, static_cast<int>(threadIdx.x), channel,
                                 [&](int, I offset) { sum += math::load(dy[offset]); });
        const C total = block_tree_sum(sum, shared);
        if (threadIdx.x == 0) {
            partials[static_cast<long long>(channel) * gridDim.x + slice] = total;
        }
    }
}

// Second stage, one warp per channel (blockIdx.x): the slices in a fixed order.
template <typename T>
__global__ void __launch_bounds__(math::kCombineLanes)
    bias_backward_combine_kernel(long long slices, const math::compute_t<T>* partials, T* dbias) {
    using C = math::compute_t<T>;
    const long long channel = blockIdx.x;
    const C* p = partials + channel * slices;
    const C total = warp_ordered_sum<C>(slices, [&](long long s) { return p[s]; });
    if (threadIdx.x == 0) {
        dbias[channel] = math::store<T>(total);
    }
}

// Elements of a plane one load moves: 16 bytes where every plane starts 16-byte aligned.
template <typename T, int V>
struct alignas(sizeof(T) * V) Pack {
    T values[V];
};

// A warp per plane: lane l sums packs l, l + 32, ... (element order within a pack), then
// a shuffle tree (math::tree_sum's pairing); consecutive lanes read consecutive 16 bytes.
template <typename T, int V>
__global__ void global_avg_pool_forward_kernel(std::int64_t planes, std::int64_t area, const T* x,
                                               T* y) {
    using C = math::compute_t<T>;
    constexpr int kWarpsPerBlock = kThreadsPerBlock / math::kCombineLanes;
    const unsigned int lane = threadIdx.x % math::kCombineLanes;
    const std::int64_t first =
        static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / math::kCombineLanes;
    const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * kWarpsPerBlock;
    const std::int64_t packs = area / V;
    for (std::int64_t plane = first; plane < planes; plane += warps) {
        const auto* in = reinterpret_cast<const Pack<T, V>*>(x + plane * area);
        C sum = 0;
        for (std::int64_t p = lane; p < packs; p += math::kCombineLanes) {
            const Pack<T, V> pack = in[p];
#pragma unroll
            for (int e = 0; e < V; ++e) {
                sum += math::load(pack.values[e]);
            }
        }
        sum = warp_tree_sum(sum);
        if (lane == 0) {
            y[plane] = math::store<T>(sum / static_cast<C>(area));
        }
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
    if (count == 0) {
        return;
    }
    const std::int64_t stride = grid_stride_for(count);
    with_index_type(count, stride, [&](auto zero) {
        using I = decltype(zero);
        add_bias_kernel<T, I><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
            static_cast<I>(count), math::flat_channel_walk<I>(channels, inner, stride), y, bias);
        TS_CUDA_CHECK_LAUNCH();
    });
}

template <typename T>
std::size_t bias_backward_workspace_bytes(std::int64_t outer, std::int64_t channels,
                                          std::int64_t inner) {
    return static_cast<std::size_t>(channels) *
           static_cast<std::size_t>(math::channel_slice_count(outer * inner)) *
           sizeof(math::compute_t<T>);
}

template <typename T>
void bias_backward(cudaStream_t stream, std::int64_t outer, std::int64_t channels,
                   std::int64_t inner, const T* dy, T* dbias, void* workspace) {
    if (channels == 0) {
        return;  // a grid of zero blocks is an invalid configuration
    }
    auto* partials = static_cast<math::compute_t<T>*>(workspace);
    const std::int64_t slices = math::channel_slice_count(outer * inner);
    with_index_type(outer * channels * inner, math::kSliceLength, [&](auto zero) {
        using I = decltype(zero);
        const dim3 grid(static_cast<unsigned int>(slices),
                        static_cast<unsigned int>(std::min<std::int64_t>(channels, 65535)));
        bias_backward_slices_kernel<T, I><<<grid, math::kSliceThreads, 0, stream>>>(
            math::slice_walk<I>(outer, channels, inner), dy, partials);
        TS_CUDA_CHECK_LAUNCH();
    });
    bias_backward_combine_kernel<T>
        <<<static_cast<unsigned int>(channels), math::kCombineLanes, 0, stream>>>(slices, partials,
                                                                                  dbias);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
void global_avg_pool_forward(cudaStream_t stream, std::int64_t planes, std::int64_t area,
                             const T* x, T* y) {
    if (planes == 0) {
        return;
    }
    constexpr int kVector = 16 / static_cast<int>(sizeof(T));
    constexpr std::int64_t kWarpsPerBlock = kThreadsPerBlock / math::kCombineLanes;
    const auto blocks = static_cast<unsigned int>(
        std::clamp<std::int64_t>((planes + kWarpsPerBlock - 1) / kWarpsPerBlock, 1, 65535 * 16));
    // Every plane starts 16-byte aligned when x does and a plane is whole packs.
    if (area % kVector == 0 && reinterpret_cast<std::uintptr_t>(x) % 16 == 0) {
        global_avg_pool_forward_kernel<T, kVector>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(planes, area, x, y);
    } else {
        global_avg_pool_forward_kernel<T, 1>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(planes, area, x, y);
    }
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
    template std::size_t bias_backward_workspace_bytes<T>(std::int64_t, std::int64_t,             \
                                                          std::int64_t);                          \
    template void bias_backward<T>(cudaStream_t, std::int64_t, std::int64_t, std::int64_t,        \
                                   const T*, T*, void*);                                          \
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
