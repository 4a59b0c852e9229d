#pragma once

#include <cstddef>

namespace trainscope::workloads {

// Element types a tensor can hold in backend memory.
enum class DType { f32, f64, i32 };

constexpr std::size_t dtype_bytes(DType type) {
    switch (type) {
        case DType::f32:
            return 4;
        case DType::f64:
            return 8;
        case DType::i32:
            return 4;
    }
    return 0;
}

constexpr const char* dtype_name(DType type) {
    switch (type) {
        case DType::f32:
            return "f32";
        case DType::f64:
            return "f64";
        case DType::i32:
            return "i32";
    }
    return "?";
}

}  // namespace trainscope::workloads
