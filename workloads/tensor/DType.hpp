#pragma once

#include <cstddef>

namespace trainscope::workloads {

// Element types a tensor can hold in backend memory. f16 and bf16 are for backends that
// store mixed precision natively (CUDA); the CPU backend emulates them in f32 storage.
enum class DType { f32, f64, i32, f16, bf16 };

constexpr std::size_t dtype_bytes(DType type) {
    switch (type) {
        case DType::f32:
            return 4;
        case DType::f64:
            return 8;
        case DType::i32:
            return 4;
        case DType::f16:
        case DType::bf16:
            return 2;
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
        case DType::f16:
            return "f16";
        case DType::bf16:
            return "bf16";
    }
    return "?";
}

}  // namespace trainscope::workloads
