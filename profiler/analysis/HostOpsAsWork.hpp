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

// Whether an activity of this kind is the device's work: kernels, copies and sets; in a
// host-op trace (a CPU-backend run, is_host_op_trace) the host ops as well.
bool is_device_work(ActivityKind kind, bool host_op_trace);

}  // namespace trainscope::profiler
