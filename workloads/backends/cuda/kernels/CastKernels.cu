#include "workloads/backends/cuda/kernels/CastKernels.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename To, typename From>
__global__ void convert_kernel(std::int64_t count, const From* source, To* destination) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        destination[i] = math::convert_element<To>(source[i]);
    }
}

}  // namespace

template <typename To, typename From>
void convert(cudaStream_t stream, std::int64_t count, const From* source, To* destination) {
    convert_kernel<To, From>
        <<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(count, source, destination);
    TS_CUDA_CHECK_LAUNCH();
}

#define TS_INSTANTIATE_CONVERT_FROM(From)                                                          \
    template void convert<float, From>(cudaStream_t, std::int64_t, const From*, float*);           \
    template void convert<double, From>(cudaStream_t, std::int64_t, const From*, double*);         \
    template void convert<math::Fp16, From>(cudaStream_t, std::int64_t, const From*, math::Fp16*); \
    template void convert<math::Bf16, From>(cudaStream_t, std::int64_t, const From*, math::Bf16*);
TS_INSTANTIATE_CONVERT_FROM(float)
TS_INSTANTIATE_CONVERT_FROM(double)
TS_INSTANTIATE_CONVERT_FROM(math::Fp16)
TS_INSTANTIATE_CONVERT_FROM(math::Bf16)
#undef TS_INSTANTIATE_CONVERT_FROM

}  // namespace trainscope::workloads::cuda::kernels
