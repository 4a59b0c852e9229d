#include <algorithm>

#include "workloads/backends/cuda/kernels/BatchNormKernels.hpp"
#include "workloads/backends/cuda/kernels/BatchNormMath.hpp"
#include "workloads/backends/cuda/kernels/ChannelReduction.cuh"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

// The workspace: per-channel coefficients for the element-wise pass (the larger of the
// forward's affine and the backward's), then two float sums per (channel, slice).
using Coefficients = math::BatchNormBackwardCoefficients;
static_assert(sizeof(Coefficients) >= sizeof(math::BatchNormAffine), "fits both passes");
static_assert(alignof(Coefficients) == alignof(float), "partials follow without padding");

struct Workspace {
    void* coefficients;
    float* partials;  // [channels][slices][2]
};

Workspace split(void* workspace, const BatchNormShape& d) {
    auto* coefficients = static_cast<Coefficients*>(workspace);
    return {coefficients, reinterpret_cast<float*>(coefficients + d.channels)};
}

std::int64_t slices_of(const BatchNormShape& d) {
    return math::channel_slice_count(d.n * d.area);
}

// The y of the grid: channels, each block looping when there are more than a grid holds.
unsigned int channel_rows(const BatchNormShape& d) {
    return static_cast<unsigned int>(std::min<std::int64_t>(d.channels, 65535));
}

// A statistics block's two sums, into partials[channel][slice][0..1] (slice = blockIdx.x).
__device__ inline void write_slice_sums(float* partials, long long channel, float first,
                                        float second) {
    if (threadIdx.x == 0) {
        float* out = partials + 2 * (channel * gridDim.x + blockIdx.x);
        out[0] = first;
        out[1] = second;
    }
}

// Statistics pass, block (slice, channel): the slice's sum and its squared deviations
// about its own float mean, from values held in registers (x is read once).
template <typename S, typename I>
__global__ void __launch_bounds__(math::kSliceThreads)
    batch_norm_statistics_kernel(math::ChannelWalk<I> w, const S* x, float* partials) {
    __shared__ float shared[math::kSliceThreads];
    const long long slice = blockIdx.x;
    const long long elements = math::channel_slice_elements(w.per_channel, slice);
    for (I channel = blockIdx.y; channel < w.channels; channel += gridDim.y) {
        float values[math::kSliceItems];
        int held = 0;
        float sum = 0.0f;
        math::visit_slice_thread(w, slice, static_cast<int>(threadIdx.x), channel,
                                 [&](int i, I offset) {
                                     values[i] = math::load(x[offset]);
                                     sum += values[i];
                                     held = i + 1;
                                 });
        const float total = block_tree_sum(sum, shared);
        const float mean = math::batch_norm_slice_mean(total, elements);
        float squares = 0.0f;
#pragma unroll
        for (int i = 0; i < math::kSliceItems; ++i) {
            if (i < held) {
                squares += math::batch_norm_centered_square(values[i], mean);
            }
        }
        const float total_squares = block_tree_sum(squares, shared);
        write_slice_sums(partials, channel, total, total_squares);
    }
}

// One warp per channel (blockIdx.x): the slices' sums in a fixed order, the statistics,
// the running blend and the affine of the normalize pass.
__global__ void __launch_bounds__(math::kCombineLanes)
    batch_norm_forward_finalize_kernel(long long per_channel, long long slices,
                                       const float* partials, const float* gamma, const float* beta,
                                       float* running_mean, float* running_var, float* saved_mean,
                                       float* saved_inv_std, math::BatchNormAffine* affine,
                                       double momentum, double epsilon, bool update_running) {
    const long long channel = blockIdx.x;
    const float* p = partials + 2 * channel * slices;
    const double count = static_cast<double>(per_channel);
    const float sum = warp_ordered_sum<float>(slices, [&](long long s) { return p[2 * s]; });
    const float centre = static_cast<float>(math::batch_norm_mean(sum, count));
    const float squares = warp_ordered_sum<float>(slices, [&](long long s) {
        const long long elements = math::channel_slice_elements(per_channel, s);
        return math::batch_norm_recentred_squares(
            p[2 * s + 1], elements, math::batch_norm_slice_mean(p[2 * s], elements), centre);
    });
    if (threadIdx.x != 0) {
        return;
    }
    const math::BatchNormBatchStats stats = math::batch_norm_finalize(sum, squares, count, epsilon);
    saved_mean[channel] = centre;
    saved_inv_std[channel] = static_cast<float>(stats.inv_std);
    if (update_running) {
        running_mean[channel] = math::batch_norm_blend(running_mean[channel], stats.mean, momentum);
        running_var[channel] = math::batch_norm_blend(
            running_var[channel], math::batch_norm_unbiased_variance(stats.variance, count),
            momentum);
    }
    affine[channel] =
        math::batch_norm_affine(gamma[channel], beta[channel], stats.mean, stats.inv_std);
}

__global__ void batch_norm_inference_affine_kernel(long long channels, const float* gamma,
                                                   const float* beta, const float* running_mean,
                                                   const float* running_var, double epsilon,
                                                   math::BatchNormAffine* affine) {
    const long long channel = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (channel < channels) {
        affine[channel] =
            math::batch_norm_affine(gamma[channel], beta[channel], running_mean[channel],
                                    math::batch_norm_inv_std(running_var[channel], epsilon));
    }
}

// Element-wise over the whole tensor: y = x * scale[c] + shift[c].
template <typename S, typename I>
__global__ void batch_norm_normalize_kernel(I count, math::FlatChannelWalk<I> w, const S* x,
                                            const math::BatchNormAffine* affine, S* y) {
    I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    math::FlatChannelCursor<I> at = math::flat_channel_cursor(w, i);
    for (; i < count; i += w.stride) {
        y[i] = math::store<S>(math::batch_norm_normalize(math::load(x[i]), affine[at.channel]));
        math::advance(at, w);
    }
}

// Backward statistics, block (slice, channel): sum(dy) and sum(dy * (x - saved_mean)).
template <typename S, typename I>
__global__ void __launch_bounds__(math::kSliceThreads)
    batch_norm_backward_statistics_kernel(math::ChannelWalk<I> w, const S* x, const S* dy,
                                          const float* saved_mean, float* partials) {
    __shared__ float shared[math::kSliceThreads];
    const long long slice = blockIdx.x;
    for (I channel = blockIdx.y; channel < w.channels; channel += gridDim.y) {
        const float centre = saved_mean[channel];
        float sum_dy = 0.0f;
        float sum_dy_centered = 0.0f;
        math::visit_slice_thread(
            w, slice, static_cast<int>(threadIdx.x), channel, [&](int, I offset) {
                const float g = math::load(dy[offset]);
                sum_dy += g;
                sum_dy_centered +=
                    math::batch_norm_centered_product(g, math::load(x[offset]), centre);
            });
        const float total_dy = block_tree_sum(sum_dy, shared);
        const float total_dy_centered = block_tree_sum(sum_dy_centered, shared);
        write_slice_sums(partials, channel, total_dy, total_dy_centered);
    }
}

__global__ void __launch_bounds__(math::kCombineLanes)
    batch_norm_backward_finalize_kernel(long long per_channel, long long slices,
                                        const float* partials, const float* gamma,
                                        const float* saved_mean, const float* saved_inv_std,
                                        float* dgamma, float* dbeta, Coefficients* coefficients) {
    const long long channel = blockIdx.x;
    const float* p = partials + 2 * channel * slices;
    const float sum_dy = warp_ordered_sum<float>(slices, [&](long long s) { return p[2 * s]; });
    const float sum_dy_centered =
        warp_ordered_sum<float>(slices, [&](long long s) { return p[2 * s + 1]; });
    if (threadIdx.x != 0) {
        return;
    }
    const Coefficients k = math::batch_norm_backward_coefficients(
        gamma[channel], saved_mean[channel], saved_inv_std[channel], sum_dy, sum_dy_centered,
        static_cast<double>(per_channel));
    dgamma[channel] = k.dgamma;
    dbeta[channel] = k.dbeta;
    coefficients[channel] = k;
}

// Element-wise over the whole tensor: dx = a[c] * dy + b[c] * x + c[c].
template <typename S, typename I>
__global__ void batch_norm_input_gradient_kernel(I count, math::FlatChannelWalk<I> w, const S* x,
                                                 const S* dy, const Coefficients* coefficients,
                                                 S* dx) {
    I i = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    math::FlatChannelCursor<I> at = math::flat_channel_cursor(w, i);
    for (; i < count; i += w.stride) {
        dx[i] = math::store<S>(math::batch_norm_input_gradient(math::load(dy[i]), math::load(x[i]),
                                                               coefficients[at.channel]));
        math::advance(at, w);
    }
}

std::int64_t elements_of(const BatchNormShape& d) {
    return d.n * d.channels * d.area;
}

template <typename I>
math::ChannelWalk<I> statistics_walk(const BatchNormShape& d) {
    return math::slice_walk<I>(d.n, d.channels, d.area);
}

template <typename I>
math::FlatChannelWalk<I> element_walk(const BatchNormShape& d) {
    return math::flat_channel_walk<I>(d.channels, d.area, grid_stride_for(elements_of(d)));
}

// Statistics kernels index at most one slice past a channel's last element.
template <typename Body>
void with_statistics_index(const BatchNormShape& d, const Body& body) {
    with_index_type(elements_of(d), math::kSliceLength, body);
}

template <typename Body>
void with_element_index(const BatchNormShape& d, const Body& body) {
    with_index_type(elements_of(d), grid_stride_for(elements_of(d)), body);
}

template <typename S>
void launch_normalize(cudaStream_t stream, const BatchNormShape& d, const S* x,
                      const math::BatchNormAffine* affine, S* y) {
    const std::int64_t count = elements_of(d);
    if (count == 0) {
        return;
    }
    with_element_index(d, [&](auto zero) {
        using I = decltype(zero);
        batch_norm_normalize_kernel<S, I><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
            static_cast<I>(count), element_walk<I>(d), x, affine, y);
        TS_CUDA_CHECK_LAUNCH();
    });
}

}  // namespace

std::size_t batch_norm_workspace_bytes(const BatchNormShape& shape) {
    const auto channels = static_cast<std::size_t>(shape.channels);
    return channels * sizeof(Coefficients) +
           channels * static_cast<std::size_t>(slices_of(shape)) * 2 * sizeof(float);
}

template <typename S>
void batch_norm_forward_training(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                 const float* gamma, const float* beta, S* y, float* running_mean,
                                 float* running_var, float* saved_mean, float* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running,
                                 void* workspace) {
    if (shape.channels == 0) {
        return;
    }
    const Workspace w = split(workspace, shape);
    const std::int64_t slices = slices_of(shape);
    with_statistics_index(shape, [&](auto zero) {
        using I = decltype(zero);
        const dim3 grid(static_cast<unsigned int>(slices), channel_rows(shape));
        batch_norm_statistics_kernel<S, I>
            <<<grid, math::kSliceThreads, 0, stream>>>(statistics_walk<I>(shape), x, w.partials);
        TS_CUDA_CHECK_LAUNCH();
    });
    auto* affine = static_cast<math::BatchNormAffine*>(w.coefficients);
    batch_norm_forward_finalize_kernel<<<static_cast<unsigned int>(shape.channels),
                                         math::kCombineLanes, 0, stream>>>(
        shape.n * shape.area, slices, w.partials, gamma, beta, running_mean, running_var,
        saved_mean, saved_inv_std, affine, settings.momentum, settings.epsilon, update_running);
    TS_CUDA_CHECK_LAUNCH();
    launch_normalize(stream, shape, x, affine, y);
}

template <typename S>
void batch_norm_forward_inference(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                  const float* gamma, const float* beta, const float* running_mean,
                                  const float* running_var, S* y, const BatchNormSettings& settings,
                                  void* workspace) {
    if (shape.channels == 0) {
        return;
    }
    auto* affine = static_cast<math::BatchNormAffine*>(split(workspace, shape).coefficients);
    const auto blocks =
        static_cast<unsigned int>((shape.channels + kThreadsPerBlock - 1) / kThreadsPerBlock);
    batch_norm_inference_affine_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(
        shape.channels, gamma, beta, running_mean, running_var, settings.epsilon, affine);
    TS_CUDA_CHECK_LAUNCH();
    launch_normalize(stream, shape, x, affine, y);
}

template <typename S>
void batch_norm_backward(cudaStream_t stream, const BatchNormShape& shape, const S* x, const S* dy,
                         const float* gamma, const float* saved_mean, const float* saved_inv_std,
                         S* dx, float* dgamma, float* dbeta, void* workspace) {
    if (shape.channels == 0) {
        return;
    }
    const Workspace w = split(workspace, shape);
    const std::int64_t slices = slices_of(shape);
    with_statistics_index(shape, [&](auto zero) {
        using I = decltype(zero);
        const dim3 grid(static_cast<unsigned int>(slices), channel_rows(shape));
        batch_norm_backward_statistics_kernel<S, I><<<grid, math::kSliceThreads, 0, stream>>>(
            statistics_walk<I>(shape), x, dy, saved_mean, w.partials);
        TS_CUDA_CHECK_LAUNCH();
    });
    auto* coefficients = static_cast<Coefficients*>(w.coefficients);
    batch_norm_backward_finalize_kernel<<<static_cast<unsigned int>(shape.channels),
                                          math::kCombineLanes, 0, stream>>>(
        shape.n * shape.area, slices, w.partials, gamma, saved_mean, saved_inv_std, dgamma, dbeta,
        coefficients);
    TS_CUDA_CHECK_LAUNCH();
    const std::int64_t count = elements_of(shape);
    if (count == 0) {
        return;
    }
    with_element_index(shape, [&](auto zero) {
        using I = decltype(zero);
        batch_norm_input_gradient_kernel<S, I><<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
            static_cast<I>(count), element_walk<I>(shape), x, dy, coefficients, dx);
        TS_CUDA_CHECK_LAUNCH();
    });
}

#define TS_INSTANTIATE_BATCH_NORM(S)                                                              \
    template void batch_norm_forward_training<S>(                                                 \
        cudaStream_t, const BatchNormShape&, const S*, const float*, const float*, S*, float*,    \
        float*, float*, float*, const BatchNormSettings&, bool, void*);                           \
    template void batch_norm_forward_inference<S>(                                                \
        cudaStream_t, const BatchNormShape&, const S*, const float*, const float*, const float*,  \
        const float*, S*, const BatchNormSettings&, void*);                                       \
    template void batch_norm_backward<S>(cudaStream_t, const BatchNormShape&, const S*, const S*, \
                                         const float*, const float*, const float*, S*, float*,    \
                                         float*, void*);
TS_INSTANTIATE_BATCH_NORM(float)
TS_INSTANTIATE_BATCH_NORM(math::Fp16)
TS_INSTANTIATE_BATCH_NORM(math::Bf16)
#undef TS_INSTANTIATE_BATCH_NORM

}  // namespace trainscope::workloads::cuda::kernels
