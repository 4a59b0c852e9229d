#pragma once

#include <bit>
#include <cstdint>

namespace trainscope {

// The 64-bit NVTX payload of an op range (domain "trainscope.ops") that says what the op
// must do: its FLOPs and minimum bytes, each as an IEEE float32 (high word FLOPs, low
// word bytes). One NVTX payload holds one 64-bit value; two float32s keep both numbers
// on the range itself (24 significant bits: 6e-8 relative, far below timing noise), so
// the host tracer reads them without parsing names. Here, not in workloads or profiler,
// because the engine encodes and the tracer decodes and neither may see the other.
struct OpWork {
    double flops = 0.0;
    double bytes = 0.0;
};

inline std::uint64_t encode_op_work(OpWork work) {
    const auto high = std::bit_cast<std::uint32_t>(static_cast<float>(work.flops));
    const auto low = std::bit_cast<std::uint32_t>(static_cast<float>(work.bytes));
    return (static_cast<std::uint64_t>(high) << 32U) | low;
}

inline OpWork decode_op_work(std::uint64_t payload) {
    const auto flops = std::bit_cast<float>(static_cast<std::uint32_t>(payload >> 32U));
    const auto bytes = std::bit_cast<float>(static_cast<std::uint32_t>(payload & 0xffffffffU));
    return {static_cast<double>(flops), static_cast<double>(bytes)};
}

}  // namespace trainscope
