#include "workloads/tensor/Tensor.hpp"

#include <stdexcept>
#include <string>

#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {

TensorStorage::~TensorStorage() {
    owner_->release(data_, bytes_, tensor_class_);
}

Tensor Tensor::reshaped(const Shape& shape) const {
    if (shape.elements() != shape_.elements()) {
        throw std::logic_error("Tensor::reshaped: " + shape_.to_string() + " cannot become " +
                               shape.to_string());
    }
    Tensor result(storage_, shape, dtype_);
    result.offset_bytes_ = offset_bytes_;
    return result;
}

Tensor Tensor::view(std::int64_t element_offset, const Shape& shape) const {
    if (element_offset < 0 || element_offset + shape.elements() > elements()) {
        throw std::logic_error("Tensor::view: " + std::to_string(shape.elements()) +
                               " elements at offset " + std::to_string(element_offset) +
                               " reach past a tensor of " + shape_.to_string());
    }
    Tensor result(storage_, shape, dtype_);
    result.offset_bytes_ =
        offset_bytes_ + static_cast<std::size_t>(element_offset) * dtype_bytes(dtype_);
    return result;
}

}  // namespace trainscope::workloads
