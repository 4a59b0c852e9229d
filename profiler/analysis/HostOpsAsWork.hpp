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

// What a trace's header (its lanes, before any activity is read) says of the same: false
// when it has no GPU stream lane, where every source puts its kernels, copies and sets, so
// that the trace is a host-op trace as soon as it holds a host op; true when it may hold
// GPU work (whether a lane of it does is known only once its activities have passed).
bool may_hold_gpu_work(const Trace& header);

// Whether an activity of this kind is the device's work: kernels, copies and sets; in a
// host-op trace (a CPU-backend run, is_host_op_trace) the host ops as well.
bool is_device_work(ActivityKind kind, bool host_op_trace);

}  // namespace trainscope::profiler
