#include "profiler/host/HostTracer.hpp"

#include <atomic>
#include <stdexcept>

#include "profiler/capture/HostClock.hpp"
#include "profiler/host/detail/NvtxRangeSink.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {

namespace {
std::atomic<bool> g_host_tracer_active{false};
}  // namespace

HostTracer::HostTracer(HostTracerOptions options) : options_(std::move(options)) {
    if (g_host_tracer_active.exchange(true)) {
        throw std::logic_error("a HostTracer is already recording in this process");
    }
    start_ns_ = host_clock_now_ns();
    detail::begin_recording_nvtx_ranges();
    running_ = true;
}

HostTracer::~HostTracer() {
    if (running_) {
        detail::end_recording_nvtx_ranges();
        g_host_tracer_active.store(false);
    }
}

bool HostTracer::injection_attached() {
    return detail::nvtx_injection_attached();
}

Trace HostTracer::stop() {
    Trace trace;
    trace.base_ns = start_ns_;
    trace.metadata["source.format"] = "host-nvtx";
    if (!running_)
        return trace;
    const std::vector<detail::CompletedNvtxRange> ranges = detail::end_recording_nvtx_ranges();
    const std::int64_t end_ns = host_clock_now_ns();
    running_ = false;
    g_host_tracer_active.store(false);

    // The lanes hold what the CPU ran (on the CPU backend, the device's work).
    LaneRegistry lanes(trace);
    for (const detail::CompletedNvtxRange& r : ranges) {
        const bool host_op =
            r.domain == options_.host_op_domain ||
            (options_.host_op_category != 0 && r.category == options_.host_op_category);
        Activity a;
        a.kind = host_op ? ActivityKind::HostOp : ActivityKind::NvtxRange;
        a.lane = host_op ? lanes.host_thread(r.process, r.thread) : lanes.nvtx(r.process, r.thread);
        a.start_ns = r.start_ns - start_ns_;
        a.end_ns = r.end_ns - start_ns_;
        a.name = trace.strings.intern(r.message);
        trace.activities.push_back(a);
    }
    lanes.finish();
    // Ranges of several domains share a thread's NVTX lane: depth from how the intervals
    // nest, as for every other source, not from each domain's own push count.
    assign_nesting_depths(trace);
    trace.capture_begin_ns = 0;
    trace.capture_end_ns = end_ns - start_ns_;
    trace.metadata["host.nvtx_injection"] = injection_attached() ? "attached" : "not attached";
    return trace;
}

}  // namespace trainscope::profiler
