#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

#include "workloads/tensor/DType.hpp"

namespace trainscope::workloads {

// Marks a 16-bit dtype a backend has no element type for (it never stores one).
struct NoElementType {};

// Calls body(T{}) with T the C++ element type a backend uses for a float dtype: float
// for f32, double for f64, and Half / BFloat16 for f16 / bf16 where the backend stores
// them natively (the CUDA backend passes its storage structs; the CPU backend, which
// emulates them in f32, leaves them NoElementType). Any other dtype is a programming
// error: throws std::logic_error "<backend>: <op> needs ..., got <dtype>".
template <typename Half = NoElementType, typename BFloat16 = NoElementType, typename Body>
void with_float_type(DType dtype, const char* backend, const char* op, const Body& body) {
    constexpr bool kHasHalf = !std::is_same_v<Half, NoElementType>;
    constexpr bool kHasBFloat16 = !std::is_same_v<BFloat16, NoElementType>;
    switch (dtype) {
        case DType::f32:
            body(float{});
            return;
        case DType::f64:
            body(double{});
            return;
        case DType::f16:
            if constexpr (kHasHalf) {
                body(Half{});
                return;
            }
            break;
        case DType::bf16:
            if constexpr (kHasBFloat16) {
                body(BFloat16{});
                return;
            }
            break;
        case DType::i32:
            break;
    }
    const char* accepted =
        kHasHalf && kHasBFloat16 ? "an f32, f64, f16 or bf16 tensor" : "an f32 or f64 tensor";
    throw std::logic_error(std::string(backend) + ": " + op + " needs " + accepted + ", got " +
                           dtype_name(dtype));
}

}  // namespace trainscope::workloads
