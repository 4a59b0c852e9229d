#pragma once

#include <cstddef>
#include <string>

#include "workloads/tensor/TensorClass.hpp"

namespace trainscope::workloads {

// Untyped backend memory: what a backend offers (malloc on the CPU, cudaMalloc on a
// GPU) and what a caching pool sits on. Memory from allocate() goes back through
// deallocate() with the same size and tensor class. The class says what the memory is for
// (weights, activations, ...): allocators that keep figures keep them per class.
class RawAllocator {
  public:
    virtual ~RawAllocator() = default;
    virtual void* allocate(std::size_t bytes, TensorClass tensor_class) = 0;
    virtual void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept = 0;
    virtual std::string name() const = 0;
};

}  // namespace trainscope::workloads
