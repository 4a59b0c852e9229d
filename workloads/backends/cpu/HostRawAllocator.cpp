#include "workloads/backends/cpu/HostRawAllocator.hpp"

#include <cstdlib>
#include <new>

namespace trainscope::workloads {

void* HostRawAllocator::allocate(std::size_t bytes) {
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    void* data = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
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
