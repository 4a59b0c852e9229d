#pragma once

#include <cuda_runtime_api.h>

#include "workloads/backends/cuda/DeviceMemoryCounter.hpp"
#include "workloads/memory/RawAllocator.hpp"

// The device memory strategies a run chooses between (allocator axis). Each is a
// different runtime path; all count their bytes the same way. The tensor class of a
// request changes nothing in how it is served: the run's MemoryLedger (over the
// TensorAllocator) counts tensor bytes per class, the CachingPool its blocks per class.
namespace trainscope::workloads::cuda {

class CountingRawAllocator : public RawAllocator {
  public:
    const DeviceMemoryCounter& counter() const { return counter_; }

  protected:
    DeviceMemoryCounter counter_;
};

// cudaMalloc/cudaFree per tensor (allocator "device", and the upstream of "pool").
class CudaMallocAllocator final : public CountingRawAllocator {
  public:
    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override;
    std::string name() const override { return "cudaMalloc"; }
};

// Stream-ordered cudaMallocAsync/cudaFreeAsync on the compute stream from the device's
// default pool, whose release threshold keeps freed memory cached across steps.
class CudaAsyncAllocator final : public CountingRawAllocator {
  public:
    CudaAsyncAllocator(int device, cudaStream_t stream, std::uint64_t release_threshold_bytes);
    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override;
    std::string name() const override { return "cudaMallocAsync"; }

  private:
    cudaStream_t stream_;
};

// Unified memory: cudaMallocManaged, then prefetched to the device on the compute stream
// so the first kernel does not page-fault it over.
class CudaManagedAllocator final : public CountingRawAllocator {
  public:
    CudaManagedAllocator(int device, cudaStream_t stream) : device_(device), stream_(stream) {}
    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override;
    std::string name() const override { return "cudaMallocManaged"; }

  private:
    int device_;
    cudaStream_t stream_;
};

}  // namespace trainscope::workloads::cuda
