#pragma once

#include <cstdint>

#include "workloads/numerics/HostDevice.hpp"

// Index math of the row-gather kernel, shared with the CPU tests that check it against
// the CPU backend's gather_rows.
namespace trainscope::workloads::cuda::math {

// Word `index` of the destination (rows of `row_words` words) comes from this word of the
// source, whose rows are picked by `rows`.
TS_HD inline long long gather_source_word(long long index, long long row_words,
                                          const std::int32_t* rows) {
    return static_cast<long long>(rows[index / row_words]) * row_words + index % row_words;
}

// The widest copy unit (8, 4, 2 or 1 bytes) that divides a row: rows then start on word
// boundaries because tensors themselves are at least 256-byte aligned.
TS_HD inline int gather_word_bytes(unsigned long long row_bytes) {
    for (int bytes = 8; bytes > 1; bytes /= 2) {
        if (row_bytes % static_cast<unsigned long long>(bytes) == 0) {
            return bytes;
        }
    }
    return 1;
}

}  // namespace trainscope::workloads::cuda::math
