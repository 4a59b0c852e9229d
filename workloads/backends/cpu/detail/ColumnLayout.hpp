#pragma once

#include "workloads/backends/cpu/detail/ConvDims.hpp"

namespace trainscope::workloads::cpu {

// The columns [c*r*s, p*q] of one image that turn a convolution into a GEMM (im2col),
// and their adjoint, which adds columns back onto an image (col2im; it may overwrite the
// columns' padding entries). Under tf32 the columns hold tf32-rounded inputs.
template <typename T>
void im2col(const ConvDims& dims, const T* image, T* columns, bool tf32);
// As above, with the column rows `ld` elements apart (ld >= p*q), for a block of images
// side by side in one set of columns.
template <typename T>
void im2col(const ConvDims& dims, const T* image, T* columns, bool tf32, std::int64_t ld);
template <typename T>
void col2im(const ConvDims& dims, T* columns, T* image);

}  // namespace trainscope::workloads::cpu
