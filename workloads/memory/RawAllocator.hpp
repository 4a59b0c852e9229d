#pragma once

#include <cstddef>
#include <string>

namespace trainscope::workloads {

// Untyped backend memory: what a backend offers (malloc on the CPU, cudaMalloc on a
// GPU) and what a caching pool sits on. Memory from allocate() goes back through
// deallocate() with the same size.
class RawAllocator {
  public:
    virtual ~RawAllocator() = default;
    virtual void* allocate(std::size_t bytes) = 0;
    virtual void deallocate(void* data, std::size_t bytes) noexcept = 0;
    virtual std::string name() const = 0;
};

}  // namespace trainscope::workloads
