#include "workloads/backends/cpu/detail/ColumnLayout.hpp"

#include <algorithm>

#include "workloads/backends/cpu/detail/Tf32Inputs.hpp"

namespace trainscope::workloads::cpu {
namespace {

// Range of output columns q whose input column q * stride - padding + offset is inside [0, w).
inline void valid_columns(const ConvDims& d, std::int64_t offset, std::int64_t& first,
                          std::int64_t& last) {
    // q * stride >= padding - offset
    const std::int64_t low = d.padding - offset;
    first = low <= 0 ? 0 : (low + d.stride - 1) / d.stride;
    // q * stride <= w - 1 + padding - offset
    const std::int64_t high = d.w - 1 + d.padding - offset;
    last = high < 0 ? 0 : std::min<std::int64_t>(d.q, high / d.stride + 1);
    first = std::min(first, last);
}

// Column rows are as short as an image row, so the loops here must stay loops: GCC
// would otherwise turn each zero run and copy into a memset/memcpy call, and the calls
// cost more than the copying.
#if defined(__GNUC__) && !defined(__clang__)
#define TS_KEEP_LOOPS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define TS_KEEP_LOOPS
#endif

template <typename T>
TS_KEEP_LOOPS void zero(T* out, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) {
        out[i] = T(0);
    }
}

// "Same" convolutions (stride 1, output as large as the input, as in ResNets): each
// column block is the image plane shifted by (kr - padding, ks - padding), so it is one
// contiguous copy plus zeroed edges instead of one short copy per output row.
bool is_same_stride1(const ConvDims& d) {
    return d.stride == 1 && d.p == d.h && d.q == d.w;
}

// Output rows [first, last) of a block whose source rows exist.
struct BlockRows {
    std::int64_t first, last;
};

BlockRows block_rows(const ConvDims& d, std::int64_t row_shift) {
    return {std::max<std::int64_t>(0, -row_shift), std::min<std::int64_t>(d.p, d.h - row_shift)};
}

// Zeroes the columns of rows [first, last) whose source lies beyond the row's edge.
template <typename T>
TS_KEEP_LOOPS void zero_edges(const ConvDims& d, T* block, BlockRows rows, std::int64_t col_shift) {
    const std::int64_t left = std::max<std::int64_t>(0, -col_shift);
    const std::int64_t right = std::max<std::int64_t>(0, col_shift);
    for (std::int64_t op = rows.first; op < rows.last; ++op) {
        T* row = block + op * d.q;
        zero(row, left);
        zero(row + d.q - right, right);
    }
}

template <typename T>
TS_KEEP_LOOPS void im2col_same(const ConvDims& d, const T* image, T* columns, std::int64_t ld) {
    const std::int64_t pq = d.p * d.q;
    for (std::int64_t c = 0; c < d.c; ++c) {
        const T* plane = image + c * pq;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* block = columns + ((c * d.r + kr) * d.s + ks) * ld;
                const std::int64_t row_shift = kr - d.padding;
                const std::int64_t col_shift = ks - d.padding;
                const BlockRows rows = block_rows(d, row_shift);
                if (rows.first >= rows.last) {
                    zero(block, pq);
                    continue;
                }
                zero(block, rows.first * d.q);
                zero(block + rows.last * d.q, (d.p - rows.last) * d.q);
                // Reads stay inside the source rows: the skipped ends are edge columns.
                T* __restrict target = block + rows.first * d.q;
                const T* __restrict source = plane + (rows.first + row_shift) * d.w + col_shift;
                const std::int64_t count = (rows.last - rows.first) * d.q;
                const std::int64_t end = count - std::max<std::int64_t>(0, col_shift);
                for (std::int64_t i = std::max<std::int64_t>(0, -col_shift); i < end; ++i) {
                    target[i] = source[i];
                }
                zero_edges(d, block, rows, col_shift);
            }
        }
    }
}

// The adjoint of im2col_same. Edge columns are zeroed in the columns first, so the one
// contiguous add puts exact zeros where a row wraps.
template <typename T>
TS_KEEP_LOOPS void col2im_same(const ConvDims& d, T* columns, T* image) {
    const std::int64_t pq = d.p * d.q;
    zero(image, d.c * pq);
    for (std::int64_t c = 0; c < d.c; ++c) {
        T* plane = image + c * pq;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* block = columns + ((c * d.r + kr) * d.s + ks) * pq;
                const std::int64_t row_shift = kr - d.padding;
                const std::int64_t col_shift = ks - d.padding;
                const BlockRows rows = block_rows(d, row_shift);
                if (rows.first >= rows.last) {
                    continue;
                }
                zero_edges(d, block, rows, col_shift);
                const T* __restrict source = block + rows.first * d.q;
                T* __restrict target = plane + (rows.first + row_shift) * d.w + col_shift;
                const std::int64_t count = (rows.last - rows.first) * d.q;
                const std::int64_t end = count - std::max<std::int64_t>(0, col_shift);
                for (std::int64_t i = std::max<std::int64_t>(0, -col_shift); i < end; ++i) {
                    target[i] += source[i];
                }
            }
        }
    }
}

}  // namespace

// columns [c*r*s, p*q] of one image.
template <typename T>
TS_KEEP_LOOPS void im2col(const ConvDims& d, const T* image, T* columns, bool tf32,
                          std::int64_t ld) {
    if (is_same_stride1(d) && !tf32) {
        im2col_same(d, image, columns, ld);
        return;
    }
    for (std::int64_t c = 0; c < d.c; ++c) {
        const T* plane = image + c * d.h * d.w;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* row = columns + ((c * d.r + kr) * d.s + ks) * ld;
                std::int64_t q_first = 0;
                std::int64_t q_last = 0;
                valid_columns(d, ks, q_first, q_last);
                for (std::int64_t op = 0; op < d.p; ++op) {
                    T* out = row + op * d.q;
                    const std::int64_t ih = op * d.stride - d.padding + kr;
                    if (ih < 0 || ih >= d.h) {
                        zero(out, d.q);
                        continue;
                    }
                    const T* in = plane + ih * d.w - d.padding + ks;
                    zero(out, q_first);
                    if (d.stride == 1 && !tf32) {
                        const T* __restrict source = in;
                        T* __restrict target = out;
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            target[oq] = source[oq];
                        }
                    } else if (!tf32) {
                        const std::int64_t stride = d.stride;
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] = in[oq * stride];
                        }
                    } else {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] = tf32_input(in[oq * d.stride], true);
                        }
                    }
                    zero(out + q_last, d.q - q_last);
                }
            }
        }
    }
}

template <typename T>
void im2col(const ConvDims& d, const T* image, T* columns, bool tf32) {
    im2col(d, image, columns, tf32, d.p * d.q);
}

// Adds columns back onto one image (the adjoint of im2col).
template <typename T>
TS_KEEP_LOOPS void col2im(const ConvDims& d, T* columns, T* image) {
    if (is_same_stride1(d)) {
        col2im_same(d, columns, image);
        return;
    }
    const std::int64_t pq = d.p * d.q;
    std::fill(image, image + d.c * d.h * d.w, T(0));
    for (std::int64_t c = 0; c < d.c; ++c) {
        T* plane = image + c * d.h * d.w;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                const T* row = columns + ((c * d.r + kr) * d.s + ks) * pq;
                std::int64_t q_first = 0;
                std::int64_t q_last = 0;
                valid_columns(d, ks, q_first, q_last);
                for (std::int64_t op = 0; op < d.p; ++op) {
                    const std::int64_t ih = op * d.stride - d.padding + kr;
                    if (ih < 0 || ih >= d.h) {
                        continue;
                    }
                    const T* __restrict in = row + op * d.q;
                    T* __restrict out = plane + ih * d.w - d.padding + ks;
                    if (d.stride == 1) {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] += in[oq];
                        }
                    } else {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq * d.stride] += in[oq];
                        }
                    }
                }
            }
        }
    }
}

template void im2col<float>(const ConvDims&, const float*, float*, bool);
template void im2col<double>(const ConvDims&, const double*, double*, bool);
template void im2col<float>(const ConvDims&, const float*, float*, bool, std::int64_t);
template void im2col<double>(const ConvDims&, const double*, double*, bool, std::int64_t);
template void col2im<float>(const ConvDims&, float*, float*);
template void col2im<double>(const ConvDims&, double*, double*);

}  // namespace trainscope::workloads::cpu
