#pragma once

#include <cstdint>
#include <string_view>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The name of a range that spans one training step: trainscope's NVTX "step" (also
// "step 12" from other annotators) or the PyTorch profiler's "ProfilerStep#12" (Kineto
// traces brought in with `trainscope import`).
bool is_training_step_name(std::string_view name);

// Training steps in a trace: host ranges (NVTX or host ops) with a step name. GPU lanes
// are left out because Kineto mirrors each ProfilerStep#N onto the GPU as a
// gpu_user_annotation, which would count every step twice. Per-step comparisons
// (compare's kernel diff) divide by it, so traces of different lengths compare.
std::int64_t count_training_steps(const Trace& trace);

}  // namespace trainscope::profiler
