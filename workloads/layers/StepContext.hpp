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
    // Storage dtype (Backend::storage_dtype): activations, their gradients, weight compute
    // copies and weight gradients. f16/bf16 where the backend stores mixed precision
    // natively; otherwise the master dtype, rounded by round_result where policy says.
    DType dtype = DType::f32;
    bool training = true;
    // Forward run again inside backward (activations=recompute): state that a forward
    // pass updates (batch norm running statistics) must not change a second time.
    bool recomputing = false;

    // Master weights, optimizer state, batch-norm parameters and statistics, input
    // batches as loaded: f64 for fp64 runs, f32 otherwise (also when dtype is 16-bit).
    DType master_dtype() const { return dtype == DType::f64 ? DType::f64 : DType::f32; }
    // True when reduced precision is emulated: values live in master-dtype storage and
    // round_result rounds them where a native backend would store 16-bit values.
    bool emulates_storage() const {
        return policy.storage_rounding != StorageRounding::none && dtype == master_dtype();
    }

    // The layers' tensors are activations (outputs, what backward saves, the gradients
    // flowing back); others name their class. `other` is for tests.
    Tensor make(const Shape& shape, TensorClass tensor_class = TensorClass::other) const {
        return tensors.allocate(shape, dtype, tensor_class);
    }
    Tensor make_master(const Shape& shape, TensorClass tensor_class = TensorClass::other) const {
        return tensors.allocate(shape, master_dtype(), tensor_class);
    }

    // The point where mixed precision stores a result in fp16/bf16: rounds it when
    // emulating; a natively stored 16-bit result is already rounded (no-op).
    void round_result(Tensor& tensor) const {
        if (emulates_storage()) {
            backend.round_storage(tensor, policy.storage_rounding);
        }
    }

    // A master-dtype tensor (an input batch) as the layers read it: rounded in place when
    // emulating, converted into a new storage-dtype tensor when stored natively.
    Tensor to_storage(Tensor master) const {
        if (master.dtype() == dtype) {
            round_result(master);
            return master;
        }
        Tensor stored = make(master.shape(), master.tensor_class());
        backend.convert(master, stored);
        return stored;
    }
};

}  // namespace trainscope::workloads
