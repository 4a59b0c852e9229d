#include "reports/trace/StoredRunAnalysis.hpp"

#include <algorithm>
#include <utility>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

namespace {

// What the streamed analyses do not answer yet: the header tells some before any row
// is read.
bool header_needs_whole_trace(const profiler::Trace& header) {
    if (profiler::ranks_of(header).size() > 1)
        return true;
    return std::any_of(header.lanes.begin(), header.lanes.end(), [](const profiler::Lane& lane) {
        return lane.kind == profiler::LaneKind::Nvtx;
    });
}

}  // namespace

std::optional<StoredRunAnalysis> analyze_stored_run(const ResultsDatabase& db, std::int64_t run_id,
                                                    profiler::Trace& header) {
    if (header_needs_whole_trace(header))
        return std::nullopt;
    const profiler::Trace& h = header;
    profiler::DeviceWorkAccumulator work(h.lanes);
    profiler::KernelBreakdownAccumulator kernels(h.strings);
    profiler::TensorCoreAccumulator tensor_cores(h.strings);
    profiler::TraceHealthAccumulator health(h);
    std::size_t count = 0;
    bool gpu_work = false;
    bool host_ops = false;
    const bool whole = !scan_activities(
        db, run_id, h,
        [&](const profiler::Activity& a, std::size_t index) {
            // An op's FLOPs and bytes join its kernels over the whole trace (OpWork).
            if (profiler::carries_op_work(a))
                return false;
            ++count;
            work.add(a);
            tensor_cores.add(a);
            health.add(a);
            if (profiler::is_gpu_work(a.kind)) {
                gpu_work = true;
                kernels.add(a, index, a.duration_ns());
            }
            host_ops = host_ops || a.kind == profiler::ActivityKind::HostOp;
            return true;
        },
        ActivityColumns::analysis);
    // A CPU-backend trace: its ops are the device's work, by self time (whole trace).
    if (whole || (!gpu_work && host_ops))
        return std::nullopt;
    // The accumulators finish before the header (their names) moves; moving it keeps its
    // lanes' buffer, which `work` refers to.
    profiler::KernelBreakdown kernel_breakdown = std::move(kernels).finish();
    profiler::TensorCoreUsage tensor_core_usage = tensor_cores.finish();
    profiler::TraceHealth trace_health = std::move(health).finish();
    StoredRunAnalysis out{std::move(header),
                          count,
                          std::move(work),
                          std::move(kernel_breakdown),
                          std::move(tensor_core_usage),
                          std::move(trace_health)};
    return out;
}

}  // namespace trainscope::reports
