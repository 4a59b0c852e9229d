#pragma once

#include <cmath>
#include <cstdint>

#include "workloads/numerics/HostDevice.hpp"
#include "workloads/numerics/Rounding.hpp"

// The element types this backend's kernels store and how one element is loaded into its
// compute type and stored back. fp16 and bf16 are kept as their bit patterns, 2 bytes
// like CUDA's __half / __nv_bfloat16 (what cuDNN and cuBLAS read as CUDNN_DATA_HALF /
// CUDA_R_16F and CUDNN_DATA_BFLOAT16 / CUDA_R_16BF). Kernels compute in float for every
// 16-bit type (double for f64). The conversions are the integer round-to-nearest-even of
// numerics/Rounding.hpp, not cuda_fp16.h's intrinsics: the same functions the CPU backend
// emulates fp16/bf16 with, so a stored value equals the emulation's bit for bit and the
// host tests of this header cover the device path too.
namespace trainscope::workloads::cuda::math {

struct Fp16 {
    std::uint16_t bits;
};
struct Bf16 {
    std::uint16_t bits;
};
static_assert(sizeof(Fp16) == 2 && sizeof(Bf16) == 2, "16-bit storage must be 2 bytes");

// The type an element is computed in.
template <typename S>
struct ComputeOf {
    using type = S;  // float, double
};
template <>
struct ComputeOf<Fp16> {
    using type = float;
};
template <>
struct ComputeOf<Bf16> {
    using type = float;
};
template <typename S>
using compute_t = typename ComputeOf<S>::type;

TS_HD inline float load(float value) {
    return value;
}
TS_HD inline double load(double value) {
    return value;
}
// Every fp16 and bf16 value is exactly a float.
TS_HD inline float load(Fp16 value) {
    return numerics::float_from_fp16_bits(value.bits);
}
TS_HD inline float load(Bf16 value) {
    return numerics::float_from_bits(static_cast<std::uint32_t>(value.bits) << 16);
}

// bf16 bits of a float, round to nearest even, NaN kept NaN (the quiet bit lands in the
// upper half that bf16 keeps).
TS_HD inline std::uint16_t bf16_bits_from_float(float value) {
    return static_cast<std::uint16_t>(numerics::float_bits(numerics::round_to_bf16(value)) >> 16);
}

// A compute value stored as S. float -> fp16/bf16 rounds to nearest even (overflow to
// infinity for fp16 at |x| >= 65520; fp16 subnormals kept).
template <typename S>
TS_HD inline S store(compute_t<S> value) {
    return value;
}
template <>
TS_HD inline Fp16 store<Fp16>(float value) {
    return Fp16{numerics::fp16_bits_from_float(value)};
}
template <>
TS_HD inline Bf16 store<Bf16>(float value) {
    return Bf16{bf16_bits_from_float(value)};
}

// One element of a conversion between storage types (the engine's fp32 master -> 16-bit
// compute copy and f32 input batch -> 16-bit). A wider source narrows to the destination's
// compute type first: f64 -> fp16 would round twice, which the engine never asks for.
template <typename To, typename From>
TS_HD inline To convert_element(From value) {
    return store<To>(static_cast<compute_t<To>>(load(value)));
}

// Not NaN and not infinite (exponent bits not all ones), by bits so that no compiler
// flag can fold it away; a 16-bit value is checked as the float it loads as.
TS_HD inline bool is_finite_value(float value) {
    return (numerics::float_bits(value) & 0x7f800000u) != 0x7f800000u;
}
TS_HD inline bool is_finite_value(double value) {
#if defined(__CUDA_ARCH__)
    return isfinite(value);
#else
    return std::isfinite(value);
#endif
}
template <typename S>
TS_HD inline bool element_is_finite(S value) {
    return is_finite_value(load(value));
}

}  // namespace trainscope::workloads::cuda::math
