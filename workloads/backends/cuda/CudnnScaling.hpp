#pragma once

#include <cudnn_graph.h>

// cuDNN's alpha/beta scaling factors are read as double for double data and as float
// otherwise (half and bfloat16 data included).
namespace trainscope::workloads::cuda {

struct Scaling {
    explicit Scaling(cudnnDataType_t type) : is_double(type == CUDNN_DATA_DOUBLE) {}
    const void* one() const { return is_double ? static_cast<const void*>(&one_d) : &one_f; }
    const void* zero() const { return is_double ? static_cast<const void*>(&zero_d) : &zero_f; }
    bool is_double;
    double one_d = 1.0, zero_d = 0.0;
    float one_f = 1.0f, zero_f = 0.0f;
};

}  // namespace trainscope::workloads::cuda
