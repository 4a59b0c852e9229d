#pragma once

#include <cstdint>

namespace trainscope::workloads::cpu {

// x [n,c,h,w], w [k,c,r,s], y [n,k,p,q].
struct ConvDims {
    std::int64_t n, c, h, w, k, r, s, p, q;
    int stride, padding;
};

}  // namespace trainscope::workloads::cpu
