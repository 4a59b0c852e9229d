#include "profiler/host/HostTracer.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "common/CollectiveMessage.hpp"
#include "common/OpWorkPayload.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/capture/HostClock.hpp"
#include "profiler/host/detail/NvtxRangeSink.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {

namespace {
std::atomic<bool> g_host_tracer_active{false};

// A collective the communicator marked: an activity on the communication lane of the
// thread that started it, and its CollectiveCall.
void add_collective(Trace& trace, LaneRegistry& lanes, const detail::CompletedNvtxRange& r,
                    std::int64_t base_ns, std::int64_t& next_sequence) {
    Activity a;
    a.kind = ActivityKind::Collective;
    a.lane = lanes.communication(-1, r.thread, r.process);
    a.start_ns = r.start_ns - base_ns;
    a.end_ns = r.end_ns - base_ns;
    const CollectiveMessage message = parse_collective_message(r.message);
    const bool control = message.group == kControlCollectiveGroup;
    a.name = trace.strings.intern(control ? control_collective_activity_name(message.kind)
                                          : std::string(message.kind));
    a.bytes = std::max<std::int64_t>(r.payload, 0);
    trace.activities.push_back(a);
    CollectiveCall c;
    c.start_ns = a.start_ns;
    c.end_ns = a.end_ns;
    // The communicator's own count survives a tracer started mid-run; ranks issue the
    // same collectives in the same order, so counting here matches across ranks too.
    c.sequence = r.category != 0 ? static_cast<std::int64_t>(r.category) - 1 : next_sequence;
    next_sequence = c.sequence + 1;
    c.bytes = a.bytes;
    if (message.element_bytes > 0) {
        c.elements = a.bytes / message.element_bytes;
        c.dtype = trace.strings.intern(message.dtype);
    }
    c.lane = a.lane;
    c.group = trace.strings.intern(message.group);  // "": the world
    c.kind = collective_kind_from_string(message.kind).value_or(CollectiveKind::Other);
    trace.collectives.push_back(c);
}
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
    std::vector<detail::CompletedNvtxRange> ranges = detail::end_recording_nvtx_ranges();
    // Ranges arrive in end order; collectives are numbered in start order.
    std::stable_sort(ranges.begin(), ranges.end(),
                     [](const detail::CompletedNvtxRange& x, const detail::CompletedNvtxRange& y) {
                         return x.start_ns < y.start_ns;
                     });
    const std::int64_t end_ns = host_clock_now_ns();
    running_ = false;
    g_host_tracer_active.store(false);

    // The lanes hold what the CPU ran (on the CPU backend, the device's work).
    LaneRegistry lanes(trace);
    std::int64_t next_sequence = 0;
    for (const detail::CompletedNvtxRange& r : ranges) {
        if (r.domain == options_.collective_domain) {
            add_collective(trace, lanes, r, start_ns_, next_sequence);
            continue;
        }
        const bool host_op =
            r.domain == options_.host_op_domain ||
            (options_.host_op_category != 0 && r.category == options_.host_op_category);
        Activity a;
        a.kind = host_op ? ActivityKind::HostOp : ActivityKind::NvtxRange;
        a.lane = host_op ? lanes.host_thread(r.process, r.thread) : lanes.nvtx(r.process, r.thread);
        a.start_ns = r.start_ns - start_ns_;
        a.end_ns = r.end_ns - start_ns_;
        a.name = trace.strings.intern(r.message);
        if (r.domain == options_.host_op_domain && r.payload != -1) {
            // The op's FLOPs and minimum bytes (OpWorkPayload); kernels launched inside
            // the range inherit them through the NVTX projection.
            const OpWork work = decode_op_work(static_cast<std::uint64_t>(r.payload));
            a.flops = static_cast<float>(work.flops);  // a float32 in the payload
            a.bytes = static_cast<std::int64_t>(work.bytes);
        }
        trace.activities.push_back(a);
    }
    lanes.finish();
    // Ranges of several domains share a thread's NVTX lane: depth from how the intervals
    // nest, as for every other source, not from each domain's own push count.
    assign_nesting_depths(trace);
    trace.capture_begin_ns = 0;
    trace.capture_end_ns = end_ns - start_ns_;
    trace.metadata[kHostTracerMetadataKey] = injection_attached() ? "attached" : "not attached";
    return trace;
}

}  // namespace trainscope::profiler
