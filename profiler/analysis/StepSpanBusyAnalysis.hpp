#pragma once

#include <cstdint>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// GPU utilization the way PyTorch's TensorBoard plugin reports it on its overview
// page: kernel busy time over the span of the profiler steps, where each step (a host
// range whose name starts with `step_prefix`, e.g. "ProfilerStep#5") is stretched to
// the end of the last GPU work launched from inside it. span = first step start ..
// last stretched step end; busy = union of kernel intervals inside that span.
struct StepSpanBusy {
    std::int64_t step_count = 0;
    std::int64_t span_begin_ns = 0;
    std::int64_t span_end_ns = 0;
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
    double busy_fraction = 0.0;  // 0 when no step was found
};

StepSpanBusy analyze_step_span_busy(const Trace& trace,
                                    const std::string& step_prefix = "ProfilerStep#");

}  // namespace trainscope::profiler
