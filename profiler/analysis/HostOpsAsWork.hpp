#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The CPU backend's ops (HostOp activities) relabelled as device work on "device -1",
// so that the kernel analyses (busy/idle, breakdown by name and category) answer the
// same questions for a CPU run: which ops took the time, how much of the span was
// spent outside ops. Everything else is dropped.
Trace host_ops_as_device_work(const Trace& trace);

// True when the trace holds no GPU work (kernels, copies) but does hold host ops.
bool is_host_op_trace(const Trace& trace);

}  // namespace trainscope::profiler
