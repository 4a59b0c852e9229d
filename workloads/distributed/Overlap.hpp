#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::workloads {

// Whether a gradient bucket's all-reduce starts during backward, as soon as its gradients
// are complete (on, PyTorch DDP's way), or all of them after backward (off).
enum class Overlap { on, off };
inline constexpr std::array kOverlaps{Overlap::on, Overlap::off};

// "overlap: unknown value 'x'; valid values are on, off" (ConfigError).
Overlap parse_overlap(std::string_view text);
std::string to_string(Overlap overlap);

}  // namespace trainscope::workloads
