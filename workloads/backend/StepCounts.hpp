#pragma once

#include <cstdint>

namespace trainscope::workloads {

// What a stretch of training did to the backend, counted by CountingBackend and the
// TensorAllocator: the figures that tell a lean step from a costly one on any backend.
struct StepCounts {
    // Backend memory: RawAllocator calls below any pool (malloc/free on the CPU,
    // cudaMalloc/cudaFree on CUDA). A warm pool makes these zero.
    std::int64_t allocations = 0;
    std::int64_t frees = 0;
    // Tensors made and released (pool hits included).
    std::int64_t tensor_allocations = 0;
    std::int64_t tensor_frees = 0;
    // Calls that make the host wait for the backend: synchronize() and copy_to_host().
    std::int64_t synchronizations = 0;
    std::int64_t h2d_copies = 0;     // copy_from_host()
    std::int64_t backend_calls = 0;  // every Backend operation (BackendOp), the above included

    StepCounts& operator-=(const StepCounts& other) {
        allocations -= other.allocations;
        frees -= other.frees;
        tensor_allocations -= other.tensor_allocations;
        tensor_frees -= other.tensor_frees;
        synchronizations -= other.synchronizations;
        h2d_copies -= other.h2d_copies;
        backend_calls -= other.backend_calls;
        return *this;
    }
    friend StepCounts operator-(StepCounts a, const StepCounts& b) { return a -= b; }
};

}  // namespace trainscope::workloads
