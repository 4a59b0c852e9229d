#include "profiler/analysis/HostOpsAsWork.hpp"

#include "profiler/analysis/GpuWork.hpp"

namespace trainscope::profiler {

Trace host_ops_as_device_work(const Trace& trace) {
    Trace view;
    view.base_ns = trace.base_ns;
    view.capture_begin_ns = trace.capture_begin_ns;
    view.capture_end_ns = trace.capture_end_ns;
    view.strings = trace.strings;
    view.lanes = trace.lanes;
    view.metadata = trace.metadata;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::HostOp)
            continue;
        Activity work = a;
        work.kind = ActivityKind::Kernel;
        work.device = -1;
        view.activities.push_back(work);
    }
    return view;
}

bool is_device_work(ActivityKind kind, bool host_op_trace) {
    return is_gpu_work(kind) || (host_op_trace && kind == ActivityKind::HostOp);
}

bool may_hold_gpu_work(const Trace& header) {
    for (const Lane& lane : header.lanes) {
        if (lane.kind == LaneKind::GpuStream)
            return true;
    }
    return false;
}

bool is_host_op_trace(const Trace& trace) {
    bool has_ops = false;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memcpy ||
            a.kind == ActivityKind::Memset) {
            return false;
        }
        has_ops = has_ops || a.kind == ActivityKind::HostOp;
    }
    return has_ops;
}

}  // namespace trainscope::profiler
