#include "workloads/numerics/Precision.hpp"

#include <array>
#include <utility>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

constexpr std::array<std::pair<std::string_view, Precision>, 5> kNames{{
    {"fp32", Precision::fp32},
    {"fp64", Precision::fp64},
    {"tf32", Precision::tf32},
    {"fp16", Precision::fp16},
    {"bf16", Precision::bf16},
}};

}  // namespace

Precision parse_precision(std::string_view text) {
    for (const auto& [name, value] : kNames) {
        if (name == text) {
            return value;
        }
    }
    throw ConfigError("precision: unknown value '" + std::string(text) +
                      "'; valid values are fp32, fp64, tf32, fp16, bf16");
}

std::string to_string(Precision precision) {
    for (const auto& [name, value] : kNames) {
        if (value == precision) {
            return std::string(name);
        }
    }
    return "unknown";
}

PrecisionPolicy policy_for(Precision precision) {
    PrecisionPolicy policy;
    policy.precision = precision;
    switch (precision) {
        case Precision::fp32:
            break;
        case Precision::fp64:
            policy.storage_is_fp64 = true;
            break;
        case Precision::tf32:
            policy.math = MathMode::tf32;
            policy.emulated_on_cpu = true;
            break;
        case Precision::fp16:
            policy.storage_rounding = StorageRounding::fp16;
            policy.loss_scaling = true;
            policy.emulated_on_cpu = true;
            break;
        case Precision::bf16:
            policy.storage_rounding = StorageRounding::bf16;
            policy.emulated_on_cpu = true;
            break;
    }
    return policy;
}

}  // namespace trainscope::workloads
