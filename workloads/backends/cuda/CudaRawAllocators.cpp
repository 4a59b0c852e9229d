#include "workloads/backends/cuda/CudaRawAllocators.hpp"

#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda {

void* CudaMallocAllocator::allocate(std::size_t bytes, TensorClass tensor_class) {
    (void)tensor_class;
    void* data = nullptr;
    TS_CUDA_CHECK(cudaMalloc(&data, bytes));
    counter_.allocated(bytes);
    return data;
}

void CudaMallocAllocator::deallocate(void* data, std::size_t bytes,
                                     TensorClass tensor_class) noexcept {
    (void)tensor_class;
    TS_CUDA_CHECK_NOEXCEPT(cudaFree(data));
    counter_.released(bytes);
}

CudaAsyncAllocator::CudaAsyncAllocator(int device, cudaStream_t stream,
                                       std::uint64_t release_threshold_bytes)
    : stream_(stream) {
    cudaMemPool_t pool = nullptr;
    TS_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    // The attribute is a cuuint64_t; without it the pool returns memory to the driver at
    // every synchronization and each step pays for fresh allocations.
    std::uint64_t threshold = release_threshold_bytes;
    TS_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

void* CudaAsyncAllocator::allocate(std::size_t bytes, TensorClass tensor_class) {
    (void)tensor_class;
    void* data = nullptr;
    TS_CUDA_CHECK(cudaMallocAsync(&data, bytes, stream_));
    counter_.allocated(bytes);
    return data;
}

void CudaAsyncAllocator::deallocate(void* data, std::size_t bytes,
                                    TensorClass tensor_class) noexcept {
    (void)tensor_class;
    TS_CUDA_CHECK_NOEXCEPT(cudaFreeAsync(data, stream_));
    counter_.released(bytes);
}

void* CudaManagedAllocator::allocate(std::size_t bytes, TensorClass tensor_class) {
    (void)tensor_class;
    void* data = nullptr;
    TS_CUDA_CHECK(cudaMallocManaged(&data, bytes, cudaMemAttachGlobal));
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = device_;
    const cudaError_t prefetched = cudaMemPrefetchAsync(data, bytes, location, 0, stream_);
    if (prefetched != cudaSuccess) {
        TS_CUDA_CHECK_NOEXCEPT(cudaFree(data));
        throw_cuda_error(__FILE__, __LINE__,
                         "cudaMemPrefetchAsync(data, bytes, location, 0, stream_)", prefetched);
    }
    counter_.allocated(bytes);
    return data;
}

void CudaManagedAllocator::deallocate(void* data, std::size_t bytes,
                                      TensorClass tensor_class) noexcept {
    (void)tensor_class;
    TS_CUDA_CHECK_NOEXCEPT(cudaFree(data));
    counter_.released(bytes);
}

}  // namespace trainscope::workloads::cuda
