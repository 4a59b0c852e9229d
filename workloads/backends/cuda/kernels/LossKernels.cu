#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/LossKernels.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename T>
__global__ void softmax_cross_entropy_kernel(std::int64_t rows, std::int64_t classes,
                                             const T* logits, const std::int32_t* labels,
                                             double gradient_scale, T* dlogits,
                                             math::CrossEntropyRow* rows_out) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         row < rows; row += stride) {
        rows_out[row] = math::softmax_cross_entropy_row(
            logits + row * classes, classes, labels[row], gradient_scale,
            dlogits != nullptr ? dlogits + row * classes : nullptr);
    }
}

}  // namespace

template <typename T>
void softmax_cross_entropy(cudaStream_t stream, std::int64_t rows, std::int64_t classes,
                           const T* logits, const std::int32_t* labels, double gradient_scale,
                           T* dlogits, math::CrossEntropyRow* rows_out) {
    softmax_cross_entropy_kernel<T><<<blocks_for(rows), kThreadsPerBlock, 0, stream>>>(
        rows, classes, logits, labels, gradient_scale, dlogits, rows_out);
    TS_CUDA_CHECK_LAUNCH();
}

template void softmax_cross_entropy<float>(cudaStream_t, std::int64_t, std::int64_t, const float*,
                                           const std::int32_t*, double, float*,
                                           math::CrossEntropyRow*);
template void softmax_cross_entropy<math::Fp16>(cudaStream_t, std::int64_t, std::int64_t,
                                                const math::Fp16*, const std::int32_t*, double,
                                                math::Fp16*, math::CrossEntropyRow*);
template void softmax_cross_entropy<math::Bf16>(cudaStream_t, std::int64_t, std::int64_t,
                                                const math::Bf16*, const std::int32_t*, double,
                                                math::Bf16*, math::CrossEntropyRow*);
template void softmax_cross_entropy<double>(cudaStream_t, std::int64_t, std::int64_t, const double*,
                                            const std::int32_t*, double, double*,
                                            math::CrossEntropyRow*);

}  // namespace trainscope::workloads::cuda::kernels
