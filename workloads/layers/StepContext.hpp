#pragma once

#include "workloads/backend/Backend.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::workloads {

// What a layer needs to run one forward or backward pass.
struct StepContext {
    Backend& backend;
    TensorAllocator& tensors;
    PrecisionPolicy policy;
    DType dtype = DType::f32;
    bool training = true;
    // Forward run again inside backward (activations=recompute): state that a forward
    // pass updates (batch norm running statistics) must not change a second time.
    bool recomputing = false;

    Tensor make(const Shape& shape) const { return tensors.allocate(shape, dtype); }

    // The point where mixed precision stores a result in fp16/bf16.
    void round_result(Tensor& tensor) const {
        if (policy.storage_rounding != StorageRounding::none) {
            backend.round_storage(tensor, policy.storage_rounding);
        }
    }
};

}  // namespace trainscope::workloads
