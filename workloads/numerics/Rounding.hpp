#pragma once

#include <cstdint>
#include <cstring>

#include "workloads/numerics/HostDevice.hpp"

// Round-to-nearest-even of an fp32 value to the formats the GPU path stores or feeds to
// tensor cores. The CPU backend emulates tf32/fp16/bf16 by calling these at the points
// where the GPU path rounds; the CUDA kernels call the same functions. Integer bit
// manipulation only, so the result does not depend on the FPU rounding mode or on
// fast-math flags.
namespace trainscope::workloads::numerics {

TS_HD inline std::uint32_t float_bits(float value) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(value);
#else
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
#endif
}

TS_HD inline float float_from_bits(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
#endif
}

TS_HD inline bool is_nan_bits(std::uint32_t bits) {
    return (bits & 0x7fffffffu) > 0x7f800000u;
}

// Keeps `kept_mantissa_bits` of fp32's 23; the exponent range is fp32's, so only the
// mantissa carry can overflow to infinity, which is the correct RNE result.
TS_HD inline float round_mantissa_rne(float value, int kept_mantissa_bits) {
    std::uint32_t bits = float_bits(value);
    if (is_nan_bits(bits)) {
        return float_from_bits(bits | 0x00400000u);  // quiet NaN
    }
    const int dropped = 23 - kept_mantissa_bits;
    const std::uint32_t lsb = (bits >> dropped) & 1u;
    const std::uint32_t half_minus_one = (1u << (dropped - 1)) - 1u;
    bits += half_minus_one + lsb;
    bits &= ~((1u << dropped) - 1u);
    return float_from_bits(bits);
}

// TF32: 8-bit exponent, 10-bit mantissa (what tensor cores read from fp32 inputs).
TS_HD inline float round_to_tf32(float value) {
    return round_mantissa_rne(value, 10);
}

// bfloat16: 8-bit exponent, 7-bit mantissa.
TS_HD inline float round_to_bf16(float value) {
    return round_mantissa_rne(value, 7);
}

// IEEE binary16 bits from fp32 with round-to-nearest-even, subnormals, overflow to
// infinity (|x| >= 65520) and NaN kept quiet.
TS_HD inline std::uint16_t fp16_bits_from_float(float value) {
    const std::uint32_t bits = float_bits(value);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const std::uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u) {
        return static_cast<std::uint16_t>(sign | 0x7e00u);
    }
    if (magnitude >= 0x47800000u) {  // >= 65536, infinity included
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    }
    const std::uint32_t exponent = magnitude >> 23;
    if (exponent < 113) {  // below 2^-14: fp16 subnormal or zero, quantum 2^-24
        if (exponent == 0) {
            return static_cast<std::uint16_t>(sign);
        }
        const std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
        const std::uint32_t shift = 126u - exponent;  // value * 2^24 = mantissa >> shift
        if (shift > 24u) {
            return static_cast<std::uint16_t>(sign);
        }
        std::uint32_t quotient = mantissa >> shift;
        const std::uint32_t remainder = mantissa & ((1u << shift) - 1u);
        const std::uint32_t half = 1u << (shift - 1u);
        if (remainder > half || (remainder == half && (quotient & 1u) != 0u)) {
            ++quotient;  // may carry into the smallest normal, whose encoding follows on
        }
        return static_cast<std::uint16_t>(sign | quotient);
    }
    // Normal: rebias the exponent and round away 13 mantissa bits; a carry out of the
    // mantissa rolls into the exponent, up to infinity for [65520, 65536).
    std::uint32_t rebiased = magnitude - ((127u - 15u) << 23);
    const std::uint32_t lsb = (rebiased >> 13) & 1u;
    rebiased += 0xfffu + lsb;
    return static_cast<std::uint16_t>(sign | (rebiased >> 13));
}

TS_HD inline float float_from_fp16_bits(std::uint16_t half) {
    const std::uint32_t sign = (static_cast<std::uint32_t>(half) & 0x8000u) << 16;
    const std::uint32_t exponent = (half >> 10) & 0x1fu;
    std::uint32_t mantissa = half & 0x3ffu;
    if (exponent == 0) {
        if (mantissa == 0) {
            return float_from_bits(sign);
        }
        int unbiased = -14;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --unbiased;
        }
        mantissa &= 0x3ffu;
        return float_from_bits(sign | (static_cast<std::uint32_t>(unbiased + 127) << 23) |
                               (mantissa << 13));
    }
    if (exponent == 31) {
        return float_from_bits(sign | 0x7f800000u | (mantissa << 13));
    }
    return float_from_bits(sign | ((exponent - 15u + 127u) << 23) | (mantissa << 13));
}

TS_HD inline float round_to_fp16(float value) {
    return float_from_fp16_bits(fp16_bits_from_float(value));
}

}  // namespace trainscope::workloads::numerics
