#include "workloads/backend/GatherLayout.hpp"

#include <stdexcept>
#include <string>

namespace trainscope::workloads {
namespace {

void require(bool condition, const char* what) {
    if (!condition) {
        throw std::invalid_argument(std::string("gather_rows: ") + what);
    }
}

}  // namespace

GatherLayout gather_layout(const Tensor& source, const Tensor& indices, const Tensor& destination) {
    const Shape& from = source.shape();
    const Shape& to = destination.shape();
    require(from.rank() >= 1 && from.rank() == to.rank(), "source and destination ranks differ");
    for (int axis = 1; axis < from.rank(); ++axis) {
        require(from[axis] == to[axis], "source and destination rows differ in shape");
    }
    require(source.dtype() == destination.dtype(), "source and destination dtypes differ");
    require(indices.dtype() == DType::i32, "indices must be i32");
    require(indices.shape().rank() == 1 && indices.shape()[0] == to[0],
            "indices must be [rows of destination]");
    GatherLayout layout;
    layout.rows = to[0];
    layout.source_rows = from[0];
    layout.row_bytes = from[0] == 0 ? 0 : source.bytes() / static_cast<std::size_t>(from[0]);
    return layout;
}

}  // namespace trainscope::workloads
