#include "workloads/backends/cpu/HostRawAllocator.hpp"

#include <cstdlib>
#include <new>

namespace trainscope::workloads {

void* HostRawAllocator::allocate(std::size_t bytes) {
    const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void* data = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
    if (data == nullptr) {
        throw std::bad_alloc();
    }
    return data;
}

void HostRawAllocator::deallocate(void* data, std::size_t bytes) noexcept {
    (void)bytes;
    std::free(data);
}

}  // namespace trainscope::workloads
