#include "workloads/tensor/Tensor.hpp"

#include <stdexcept>

#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {

TensorStorage::~TensorStorage() {
    owner_->release(data_, bytes_);
}

Tensor Tensor::reshaped(const Shape& shape) const {
    if (shape.elements() != shape_.elements()) {
        throw std::logic_error("Tensor::reshaped: " + shape_.to_string() + " cannot become " +
                               shape.to_string());
    }
    return Tensor(storage_, shape, dtype_);
}

}  // namespace trainscope::workloads
