#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::workloads {

// adam: lr, betas 0.9/0.999, eps 1e-8. sgd: lr, momentum, weight decay.
enum class OptimizerKind { adam, sgd };

inline constexpr std::array kOptimizerKinds{OptimizerKind::adam, OptimizerKind::sgd};

// Throws ConfigError naming `optimizer`, the bad value and the valid ones.
OptimizerKind parse_optimizer(std::string_view text);
std::string to_string(OptimizerKind optimizer);

}  // namespace trainscope::workloads
