#include "workloads/backends/cuda/kernels/LaunchShape.hpp"
#include "workloads/backends/cuda/kernels/MultiTensorKernels.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

// Finds this block's tensor and chunk, then hands op the tensor's addresses advanced to
// the chunk and the chunk's size; op loops over it with 32-bit indices. __grid_constant__
// keeps the list in parameter space (no per-thread copy of its 4 KB).
template <int Depth, typename Op>
__global__ void __launch_bounds__(kThreadsPerBlock)
    multi_tensor_kernel(const __grid_constant__ TensorList<Depth> list, const Op op) {
    const int t = tensor_of_block(list.first_block, list.tensors, blockIdx.x);
    const ChunkRange chunk = chunk_of_block(list.first_block[t], list.counts[t], blockIdx.x);
    op(list.addresses, t, chunk);
}

template <int Depth, typename Op>
void launch(cudaStream_t stream, const TensorList<Depth>& list, const Op& op) {
    static_assert(sizeof(TensorList<Depth>) + sizeof(Op) <= 4096,
                  "kernel arguments beyond the 4 KB parameter space");
    if (list.tensors == 0) {
        return;
    }
    multi_tensor_kernel<Depth, Op><<<list.blocks(), kThreadsPerBlock, 0, stream>>>(list, op);
    TS_CUDA_CHECK_LAUNCH();
}

template <typename T>
__device__ inline T* at(void* const address, const ChunkRange& chunk) {
    return static_cast<T*>(address) + chunk.begin;
}

template <typename T, typename G>
struct AdamOp {
    math::AdamConstants<T> constants;
    const math::AdamConstants<T>* device_constants;
    const float* skip_if_overflow;

    __device__ void operator()(void* const (&addresses)[4][TensorList<4>::kCapacity], int t,
                               const ChunkRange& chunk) const {
        if (math::update_skipped(skip_if_overflow)) {
            return;
        }
        const math::AdamConstants<T> k = device_constants ? *device_constants : constants;
        T* parameter = at<T>(addresses[0][t], chunk);
        const G* gradient = at<const G>(addresses[1][t], chunk);
        T* first_moment = at<T>(addresses[2][t], chunk);
        T* second_moment = at<T>(addresses[3][t], chunk);
        for (int i = threadIdx.x; i < chunk.size; i += kThreadsPerBlock) {
            math::adam_step(k, parameter[i], static_cast<T>(math::load(gradient[i])),
                            first_moment[i], second_moment[i]);
        }
    }
};

template <typename T, typename G>
struct SgdOp {
    math::SgdConstants<T> constants;
    const float* skip_if_overflow;

    __device__ void operator()(void* const (&addresses)[3][TensorList<3>::kCapacity], int t,
                               const ChunkRange& chunk) const {
        if (math::update_skipped(skip_if_overflow)) {
            return;
        }
        T* parameter = at<T>(addresses[0][t], chunk);
        const G* gradient = at<const G>(addresses[1][t], chunk);
        T* velocity = at<T>(addresses[2][t], chunk);
        for (int i = threadIdx.x; i < chunk.size; i += kThreadsPerBlock) {
            math::sgd_step(constants, parameter[i], static_cast<T>(math::load(gradient[i])),
                           velocity[i]);
        }
    }
};

template <typename T>
struct FlagNonFiniteOp {
    float* overflow;

    __device__ void operator()(void* const (&addresses)[1][TensorList<1>::kCapacity], int t,
                               const ChunkRange& chunk) const {
        const T* values = at<const T>(addresses[0][t], chunk);
        for (int i = threadIdx.x; i < chunk.size; i += kThreadsPerBlock) {
            if (!math::element_is_finite(values[i])) {
                *overflow = 1.0f;  // every writer stores the same value: no atomic needed
            }
        }
    }
};

template <typename To, typename From>
struct ConvertOp {
    __device__ void operator()(void* const (&addresses)[2][TensorList<2>::kCapacity], int t,
                               const ChunkRange& chunk) const {
        const From* source = at<const From>(addresses[0][t], chunk);
        To* destination = at<To>(addresses[1][t], chunk);
        for (int i = threadIdx.x; i < chunk.size; i += kThreadsPerBlock) {
            destination[i] = math::convert_element<To>(source[i]);
        }
    }
};

}  // namespace

template <typename T, typename G>
void adam_update_multi(cudaStream_t stream, const TensorList<4>& list,
                       const math::AdamConstants<T>& constants,
                       const math::AdamConstants<T>* device_constants,
                       const float* skip_if_overflow) {
    launch(stream, list, AdamOp<T, G>{constants, device_constants, skip_if_overflow});
}

template <typename T, typename G>
void sgd_update_multi(cudaStream_t stream, const TensorList<3>& list,
                      const math::SgdConstants<T>& constants, const float* skip_if_overflow) {
    launch(stream, list, SgdOp<T, G>{constants, skip_if_overflow});
}

template <typename T>
void flag_non_finite_multi(cudaStream_t stream, const TensorList<1>& list, float* overflow) {
    launch(stream, list, FlagNonFiniteOp<T>{overflow});
}

template <typename To, typename From>
void convert_multi(cudaStream_t stream, const TensorList<2>& list) {
    launch(stream, list, ConvertOp<To, From>{});
}

#define TS_INSTANTIATE_MULTI_OPTIMIZERS(T, G)                                           \
    template void adam_update_multi<T, G>(cudaStream_t, const TensorList<4>&,           \
                                          const math::AdamConstants<T>&,                \
                                          const math::AdamConstants<T>*, const float*); \
    template void sgd_update_multi<T, G>(cudaStream_t, const TensorList<3>&,            \
                                         const math::SgdConstants<T>&, const float*);
TS_INSTANTIATE_MULTI_OPTIMIZERS(float, float)
TS_INSTANTIATE_MULTI_OPTIMIZERS(float, math::Fp16)
TS_INSTANTIATE_MULTI_OPTIMIZERS(float, math::Bf16)
TS_INSTANTIATE_MULTI_OPTIMIZERS(double, double)
#undef TS_INSTANTIATE_MULTI_OPTIMIZERS

#define TS_INSTANTIATE_MULTI_STORAGE(S)                                                 \
    template void flag_non_finite_multi<S>(cudaStream_t, const TensorList<1>&, float*); \
    template void convert_multi<float, S>(cudaStream_t, const TensorList<2>&);          \
    template void convert_multi<double, S>(cudaStream_t, const TensorList<2>&);         \
    template void convert_multi<math::Fp16, S>(cudaStream_t, const TensorList<2>&);     \
    template void convert_multi<math::Bf16, S>(cudaStream_t, const TensorList<2>&);
TS_INSTANTIATE_MULTI_STORAGE(float)
TS_INSTANTIATE_MULTI_STORAGE(double)
TS_INSTANTIATE_MULTI_STORAGE(math::Fp16)
TS_INSTANTIATE_MULTI_STORAGE(math::Bf16)
#undef TS_INSTANTIATE_MULTI_STORAGE

}  // namespace trainscope::workloads::cuda::kernels
