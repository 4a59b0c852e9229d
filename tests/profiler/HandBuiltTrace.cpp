#include "HandBuiltTrace.hpp"

#include "profiler/trace/LaneRegistry.hpp"

namespace trainscope::profiler::testing {

Activity& HandBuiltTrace::add(Activity a) {
    trace_.activities.push_back(a);
    return trace_.activities.back();
}

Activity& HandBuiltTrace::kernel(std::int32_t device, std::int64_t stream, const std::string& name,
                                 std::int64_t start_ns, std::int64_t end_ns,
                                 std::uint64_t correlation) {
    Activity a;
    a.kind = ActivityKind::Kernel;
    a.device = device;
    a.lane = LaneRegistry(trace_).gpu_stream(device, stream);
    a.name = trace_.strings.intern(name);
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    a.correlation = correlation;
    return add(a);
}

Activity& HandBuiltTrace::memcpy(std::int32_t device, std::int64_t stream, std::int64_t start_ns,
                                 std::int64_t end_ns, std::int64_t bytes,
                                 std::uint64_t correlation) {
    Activity& a =
        kernel(device, stream, "Memcpy HtoD (Pinned -> Device)", start_ns, end_ns, correlation);
    a.kind = ActivityKind::Memcpy;
    a.copy_kind = CopyKind::HostToDevice;
    a.bytes = bytes;
    return a;
}

Activity& HandBuiltTrace::memset(std::int32_t device, std::int64_t stream, std::int64_t start_ns,
                                 std::int64_t end_ns, std::uint64_t correlation) {
    Activity& a = kernel(device, stream, "Memset (Device)", start_ns, end_ns, correlation);
    a.kind = ActivityKind::Memset;
    return a;
}

Activity& HandBuiltTrace::runtime_call(std::int64_t thread, const std::string& name,
                                       std::int64_t start_ns, std::int64_t end_ns,
                                       std::uint64_t correlation) {
    Activity a;
    a.kind = ActivityKind::RuntimeApi;
    a.lane = LaneRegistry(trace_).host_thread(1, thread);
    a.name = trace_.strings.intern(name);
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    a.correlation = correlation;
    return add(a);
}

Activity& HandBuiltTrace::host_op(std::int64_t thread, const std::string& name,
                                  std::int64_t start_ns, std::int64_t end_ns, std::uint16_t depth) {
    Activity a;
    a.kind = ActivityKind::HostOp;
    a.lane = LaneRegistry(trace_).host_thread(1, thread);
    a.name = trace_.strings.intern(name);
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    a.depth = depth;
    return add(a);
}

Activity& HandBuiltTrace::nvtx_range(std::int64_t thread, const std::string& name,
                                     std::int64_t start_ns, std::int64_t end_ns) {
    Activity a;
    a.kind = ActivityKind::NvtxRange;
    a.lane = LaneRegistry(trace_).nvtx(1, thread);
    a.name = trace_.strings.intern(name);
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    return add(a);
}

}  // namespace trainscope::profiler::testing
