#pragma once

#include <cstdint>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Each op's self time, as PyTorch's profiler table, HTA and TraceLens give it beside the
// total: the time in which it is the innermost op running on its lane (of the ops
// running then, the one that started last; for two that start together, the shorter).
// For ops nested properly that is the op's duration less that of the ops nested directly
// in it: aten::conv2d keeps only what aten::convolution inside it does not cover.
// `is_op[i]` says which activities are ops; only ops take part (NVTX phases and Python
// frames in between hide nothing). Ops that overlap without nesting are split the same
// way: torch 1.13's legacy profiler writes whole microseconds, so a child may end a
// microsecond after its parent; that microsecond is the child's. So the self times of a
// lane's ops always add up to the time its ops cover, each instant once. Activities
// that are not ops keep their whole duration. Indices are those of trace.activities,
// whatever its order.
std::vector<std::int64_t> op_self_times(const Trace& trace, const std::vector<bool>& is_op);

}  // namespace trainscope::profiler
