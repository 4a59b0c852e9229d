#include "workloads/backends/cpu/HostRawAllocator.hpp"

#include <cstdlib>
#include <new>

namespace trainscope::workloads {

// The class changes nothing in how host memory is served; the ledger above counts it.
void* HostRawAllocator::allocate(std::size_t bytes, TensorClass tensor_class) {
    (void)tensor_class;
    const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void* data = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
    if (data == nullptr) {
        throw std::bad_alloc();
    }
    return data;
}

void HostRawAllocator::deallocate(void* data, std::size_t bytes,
                                  TensorClass tensor_class) noexcept {
    (void)bytes;
    (void)tensor_class;
    std::free(data);
}

}  // namespace trainscope::workloads
