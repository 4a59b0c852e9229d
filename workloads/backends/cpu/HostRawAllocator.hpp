#pragma once

#include "workloads/memory/RawAllocator.hpp"

namespace trainscope::workloads {

// Plain host memory, 64-byte aligned: the CPU backend's "device" memory.
class HostRawAllocator final : public RawAllocator {
  public:
    void* allocate(std::size_t bytes) override;
    void deallocate(void* data, std::size_t bytes) noexcept override;
    std::string name() const override { return "host"; }
};

}  // namespace trainscope::workloads
