#pragma once

#include <cstddef>

#include "workloads/memory/RawAllocator.hpp"

namespace trainscope::workloads {

// Plain host memory, 256-byte aligned as cudaMalloc's: the CPU backend's "device" memory,
// so that the flat parameter buffers' views are aligned as they are on a GPU.
class HostRawAllocator final : public RawAllocator {
  public:
    static constexpr std::size_t kAlignment = 256;

    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override;
    std::string name() const override { return "host"; }
};

}  // namespace trainscope::workloads
