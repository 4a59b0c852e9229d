#pragma once

#include <cstddef>
#include <cstdint>

#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// The checked geometry of Backend::gather_rows, shared by every backend's implementation.
struct GatherLayout {
    std::int64_t rows = 0;         // rows gathered (dimension 0 of destination)
    std::int64_t source_rows = 0;  // rows to gather from
    std::size_t row_bytes = 0;     // bytes of one row (all dimensions after the first)
};

// Throws std::invalid_argument unless source and destination share dtype and row shape,
// and indices is i32 with one entry per destination row.
GatherLayout gather_layout(const Tensor& source, const Tensor& indices, const Tensor& destination);

}  // namespace trainscope::workloads
