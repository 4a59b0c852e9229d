#pragma once

#include <cstdint>

#include "workloads/numerics/Rounding.hpp"

namespace trainscope::workloads::cpu {

// What a tf32 tensor core sees of an input value; fp64 has no tf32 mode.
template <typename T>
inline T tf32_input(T value, bool tf32) {
    if constexpr (sizeof(T) == 4) {
        return tf32 ? numerics::round_to_tf32(value) : value;
    } else {
        (void)tf32;
        return value;
    }
}

template <typename T>
inline void copy_as_tf32(const T* source, T* destination, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) {
        destination[i] = tf32_input(source[i], true);
    }
}

}  // namespace trainscope::workloads::cpu
