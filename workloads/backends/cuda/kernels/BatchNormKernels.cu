#include <algorithm>

#include "workloads/backends/cuda/kernels/BatchNormKernels.hpp"
#include "workloads/backends/cuda/kernels/BatchNormMath.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

// Threads of a per-channel block; a power of two for the tree in block_sum.
constexpr int kBatchNormThreads = 512;
static_assert((kBatchNormThreads & (kBatchNormThreads - 1)) == 0, "a power of two");

// The sum of every thread's value, returned to all threads. A fixed tree over the block's
// threads in shared memory: the same inputs give the same bits on every launch.
__device__ float block_sum(float value, float* partial) {
    partial[threadIdx.x] = value;
    __syncthreads();
    for (unsigned int half = kBatchNormThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            partial[threadIdx.x] += partial[threadIdx.x + half];
        }
        __syncthreads();
    }
    const float total = partial[0];
    __syncthreads();  // partial is reused by the next reduction
    return total;
}

__device__ inline long long element(long long k, const BatchNormShape& d) {
    return math::batch_norm_offset(k, blockIdx.x, d.channels, d.area);
}

// One block per channel (blockIdx.x): sum, centred squares, then y.
template <typename S>
__global__ void __launch_bounds__(kBatchNormThreads)
    batch_norm_forward_training_kernel(BatchNormShape d, const S* x, const float* gamma,
                                       const float* beta, S* y, float* running_mean,
                                       float* running_var, float* saved_mean, float* saved_inv_std,
                                       double momentum, double epsilon, bool update_running) {
    __shared__ float partial[kBatchNormThreads];
    const long long channel = blockIdx.x;
    const long long per_channel = d.n * d.area;
    const double count = static_cast<double>(per_channel);

    float sum = 0.0f;
    for (long long k = threadIdx.x; k < per_channel; k += kBatchNormThreads) {
        sum += math::load(x[element(k, d)]);
    }
    const float total = block_sum(sum, partial);
    const float centre = static_cast<float>(math::batch_norm_mean(total, count));
    float squares = 0.0f;
    for (long long k = threadIdx.x; k < per_channel; k += kBatchNormThreads) {
        squares += math::batch_norm_centered_square(math::load(x[element(k, d)]), centre);
    }
    const math::BatchNormBatchStats stats =
        math::batch_norm_finalize(total, block_sum(squares, partial), count, epsilon);

    if (threadIdx.x == 0) {
        saved_mean[channel] = centre;
        saved_inv_std[channel] = static_cast<float>(stats.inv_std);
        if (update_running) {
            running_mean[channel] =
                math::batch_norm_blend(running_mean[channel], stats.mean, momentum);
            running_var[channel] = math::batch_norm_blend(
                running_var[channel], math::batch_norm_unbiased_variance(stats.variance, count),
                momentum);
        }
    }
    const math::BatchNormAffine affine =
        math::batch_norm_affine(gamma[channel], beta[channel], stats.mean, stats.inv_std);
    for (long long k = threadIdx.x; k < per_channel; k += kBatchNormThreads) {
        const long long i = element(k, d);
        y[i] = math::store<S>(math::batch_norm_normalize(math::load(x[i]), affine));
    }
}

// Channel blockIdx.x; blockIdx.y strides over the channel's elements (no reduction).
template <typename S>
__global__ void __launch_bounds__(kBatchNormThreads)
    batch_norm_forward_inference_kernel(BatchNormShape d, const S* x, const float* gamma,
                                        const float* beta, const float* running_mean,
                                        const float* running_var, S* y, double epsilon) {
    const long long channel = blockIdx.x;
    const long long per_channel = d.n * d.area;
    const math::BatchNormAffine affine =
        math::batch_norm_affine(gamma[channel], beta[channel], running_mean[channel],
                                math::batch_norm_inv_std(running_var[channel], epsilon));
    const long long stride = static_cast<long long>(gridDim.y) * kBatchNormThreads;
    for (long long k = static_cast<long long>(blockIdx.y) * kBatchNormThreads + threadIdx.x;
         k < per_channel; k += stride) {
        const long long i = element(k, d);
        y[i] = math::store<S>(math::batch_norm_normalize(math::load(x[i]), affine));
    }
}

// One block per channel: sum(dy) and sum(dy * (x - saved_mean)), then dx.
template <typename S>
__global__ void __launch_bounds__(kBatchNormThreads)
    batch_norm_backward_kernel(BatchNormShape d, const S* x, const S* dy, const float* gamma,
                               const float* saved_mean, const float* saved_inv_std, S* dx,
                               float* dgamma, float* dbeta) {
    __shared__ float partial[kBatchNormThreads];
    const long long channel = blockIdx.x;
    const long long per_channel = d.n * d.area;
    const float centre = saved_mean[channel];

    float sum_dy = 0.0f;
    float sum_dy_centered = 0.0f;
    for (long long k = threadIdx.x; k < per_channel; k += kBatchNormThreads) {
        const long long i = element(k, d);
        const float g = math::load(dy[i]);
        sum_dy += g;
        sum_dy_centered += math::batch_norm_centered_product(g, math::load(x[i]), centre);
    }
    const float total_dy = block_sum(sum_dy, partial);
    const float total_dy_centered = block_sum(sum_dy_centered, partial);
    const math::BatchNormBackwardCoefficients coefficients = math::batch_norm_backward_coefficients(
        gamma[channel], centre, saved_inv_std[channel], total_dy, total_dy_centered,
        static_cast<double>(per_channel));

    if (threadIdx.x == 0) {
        dgamma[channel] = coefficients.dgamma;
        dbeta[channel] = coefficients.dbeta;
    }
    for (long long k = threadIdx.x; k < per_channel; k += kBatchNormThreads) {
        const long long i = element(k, d);
        dx[i] = math::store<S>(
            math::batch_norm_input_gradient(math::load(dy[i]), math::load(x[i]), coefficients));
    }
}

unsigned int channel_blocks(const BatchNormShape& d) {
    return static_cast<unsigned int>(d.channels);
}

}  // namespace

template <typename S>
void batch_norm_forward_training(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                 const float* gamma, const float* beta, S* y, float* running_mean,
                                 float* running_var, float* saved_mean, float* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running) {
    if (shape.channels == 0) {
        return;
    }
    batch_norm_forward_training_kernel<S><<<channel_blocks(shape), kBatchNormThreads, 0, stream>>>(
        shape, x, gamma, beta, y, running_mean, running_var, saved_mean, saved_inv_std,
        settings.momentum, settings.epsilon, update_running);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename S>
void batch_norm_forward_inference(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                  const float* gamma, const float* beta, const float* running_mean,
                                  const float* running_var, S* y,
                                  const BatchNormSettings& settings) {
    if (shape.channels == 0) {
        return;
    }
    const std::int64_t per_channel = shape.n * shape.area;
    const std::int64_t wanted = (per_channel + kBatchNormThreads - 1) / kBatchNormThreads;
    const dim3 grid(channel_blocks(shape),
                    static_cast<unsigned int>(std::clamp<std::int64_t>(wanted, 1, 65535)));
    batch_norm_forward_inference_kernel<S><<<grid, kBatchNormThreads, 0, stream>>>(
        shape, x, gamma, beta, running_mean, running_var, y, settings.epsilon);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename S>
void batch_norm_backward(cudaStream_t stream, const BatchNormShape& shape, const S* x, const S* dy,
                         const float* gamma, const float* saved_mean, const float* saved_inv_std,
                         S* dx, float* dgamma, float* dbeta) {
    if (shape.channels == 0) {
        return;
    }
    batch_norm_backward_kernel<S><<<channel_blocks(shape), kBatchNormThreads, 0, stream>>>(
        shape, x, dy, gamma, saved_mean, saved_inv_std, dx, dgamma, dbeta);
    TS_CUDA_CHECK_LAUNCH();
}

#define TS_INSTANTIATE_BATCH_NORM(S)                                                              \
    template void batch_norm_forward_training<S>(cudaStream_t, const BatchNormShape&, const S*,   \
                                                 const float*, const float*, S*, float*, float*,  \
                                                 float*, float*, const BatchNormSettings&, bool); \
    template void batch_norm_forward_inference<S>(cudaStream_t, const BatchNormShape&, const S*,  \
                                                  const float*, const float*, const float*,       \
                                                  const float*, S*, const BatchNormSettings&);    \
    template void batch_norm_backward<S>(cudaStream_t, const BatchNormShape&, const S*, const S*, \
                                         const float*, const float*, const float*, S*, float*,    \
                                         float*);
TS_INSTANTIATE_BATCH_NORM(float)
TS_INSTANTIATE_BATCH_NORM(math::Fp16)
TS_INSTANTIATE_BATCH_NORM(math::Bf16)
#undef TS_INSTANTIATE_BATCH_NORM

}  // namespace trainscope::workloads::cuda::kernels
