#include "workloads/numerics/Precision.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::workloads {
namespace {

constexpr ChoiceTable<Precision, 5> kNames{{
    {"fp32", Precision::fp32},
    {"tf32", Precision::tf32},
    {"fp16", Precision::fp16},
    {"bf16", Precision::bf16},
    {"fp64", Precision::fp64},
}};
static_assert(choice_values(kNames) == kPrecisions);

}  // namespace

Precision parse_precision(std::string_view text) {
    return parse_choice(kNames, "precision", text);
}

std::string to_string(Precision precision) {
    return choice_name(kNames, precision);
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
