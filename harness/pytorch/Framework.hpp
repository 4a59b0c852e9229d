#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::harness {

// Who trains a cell: trainscope's own engine, or PyTorch through the Python worker
// (docs/pytorch.md). Parsed once from the `framework` axis's text.
enum class Framework { trainscope, pytorch };

inline constexpr std::array<Framework, 2> kFrameworks{Framework::trainscope, Framework::pytorch};

std::string to_string(Framework framework);
// Throws workloads::ConfigError naming the axis and the valid values.
Framework parse_framework(std::string_view text);

}  // namespace trainscope::harness
