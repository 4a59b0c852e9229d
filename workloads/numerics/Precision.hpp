#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::workloads {

enum class Precision { fp32, fp64, tf32, fp16, bf16 };
// In the order people read them (docs/architecture.md, "Precision").
inline constexpr std::array kPrecisions{Precision::fp32, Precision::tf32, Precision::fp16,
                                        Precision::bf16, Precision::fp64};

// Where a mixed or reduced precision rounds values it stores (activations, weight copies,
// gradients) and what conv/GEMM read.
enum class StorageRounding { none, fp16, bf16 };
enum class MathMode { native, tf32 };

struct PrecisionPolicy {
    Precision precision = Precision::fp32;
    bool storage_is_fp64 = false;
    StorageRounding storage_rounding = StorageRounding::none;
    MathMode math = MathMode::native;
    bool loss_scaling = false;
    bool emulated_on_cpu = false;
};

// Throws ConfigError naming `precision` and its valid values.
Precision parse_precision(std::string_view text);
std::string to_string(Precision precision);
PrecisionPolicy policy_for(Precision precision);

}  // namespace trainscope::workloads
