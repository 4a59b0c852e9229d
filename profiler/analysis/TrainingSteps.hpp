#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The name of a range that spans one training step: trainscope's NVTX "step" (also
// "step 12" from other annotators) or the PyTorch profiler's "ProfilerStep#12" (Kineto
// traces brought in with `trainscope import`).
bool is_training_step_name(std::string_view name);

// Training steps in a trace: host ranges (NVTX or host ops) with a step name. GPU lanes
// are left out because Kineto mirrors each ProfilerStep#N onto the GPU as a
// gpu_user_annotation, which would count every step twice. Every rank's steps count:
// training_steps(trace).size().
std::int64_t count_training_steps(const Trace& trace);

// One training step range of a trace, numbered.
struct TrainingStep {
    std::int64_t number = 0;
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
    std::int32_t rank = 0;  // of the lane the range is on (Lane::rank)
};

// The training steps (the ranges count_training_steps counts), in time order. A step's
// number is the one its name carries ("ProfilerStep#12", "step 12") when every step
// name carries one, distinct within its rank, else its position on its rank, from 0
// (trainscope's NVTX "step" ranges: the index of the steps table, warm-up steps
// included). Step N is then step N on every rank of a multi-rank trace, whose ranks'
// steps overlap in time.
std::vector<TrainingStep> training_steps(const Trace& trace);

// From the start of the first training step to the end of the last, over step ranges on
// every lane, extended to the last GPU work launched inside them (the GPU runs behind
// the host: a step's kernels may start after its range has ended). Per-step figures are
// taken over the work starting in it, so the evaluation after training and the set-up
// before it do not count as step work. The whole trace (TimeWindow{}) when there are no
// step ranges.
TimeWindow training_steps_span(const Trace& trace);

}  // namespace trainscope::profiler
