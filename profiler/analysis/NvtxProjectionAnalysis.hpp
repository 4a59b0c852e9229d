#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The GPU work launched from inside one host NVTX range: every runtime/driver call on
// the range's thread that begins within [range start, range end) is followed through
// its correlation id to the kernels (and copies) it launched. Correlation ids count per
// process, so a job's ranks reuse them: a call joins the work of its own rank only
// (the key is (rank, correlation), as in the GUI's flow lookup). In a CPU-backend trace
// (is_host_op_trace) the device's work is the host ops: those on the range's own thread
// that start within the range count as its kernels (kernel_count, kernel_ns, and
// gpu_busy_ns as their union).
struct NvtxRangeGpuTime {
    std::size_t range_index = 0;  // index into trace.activities
    std::int32_t rank = 0;        // the rank of the range's lane
    std::string name;
    std::uint16_t depth = 0;
    std::int64_t host_begin_ns = 0;
    std::int64_t host_end_ns = 0;
    std::int64_t kernel_count = 0;
    std::int64_t kernel_ns = 0;   // summed kernel durations
    std::int64_t copy_count = 0;  // memcpy + memset
    std::int64_t copy_ns = 0;
    std::int64_t gpu_busy_ns = 0;   // union of the launched kernels and copies
    std::int64_t gpu_begin_ns = 0;  // first launched GPU work starts (0 when none)
    std::int64_t gpu_end_ns = 0;    // last launched GPU work ends
};

// Which ranges a launch counts for when projected ranges nest on one thread.
enum class Attribution {
    // Every range the call lies in: a "forward" range holds all its ops' kernels. What the
    // NVTX range figures (analyze, nvtx.csv) answer: the time a phase cost.
    inclusive,
    // Only the innermost projected range the call lies in: a conv op's range leaves its
    // nested bias op's kernel to the bias. What per-op work (OpWork, the roofline) needs,
    // where an op's FLOPs and bytes are its own and exclude its nested ops'.
    innermost,
};

// One entry per NVTX range on a host NVTX lane (device -1), in trace order. Host
// threads are matched by (rank, process, thread) between the NVTX lane and the API lane.
// Inclusive: a range holds the work of the ranges nested in it.
std::vector<NvtxRangeGpuTime> project_nvtx_ranges_to_gpu(const Trace& trace);

// The same projection for any host intervals `project` picks (the op ranges of a CUDA
// run, which the host tracer records as HostOp on the thread's host lane: OpWork).
std::vector<NvtxRangeGpuTime> project_host_ranges_to_gpu(
    const Trace& trace, const std::function<bool(const Activity&)>& project,
    Attribution attribution = Attribution::inclusive);

// The ranges of one name together (a training run has thousands of "forward" ranges):
// counts and summed times. What `trainscope analyze` prints and nvtx.csv holds.
struct NvtxNameTotals {
    std::string name;
    std::int64_t count = 0;
    std::int64_t host_ns = 0;  // summed range durations
    std::int64_t kernel_count = 0;
    std::int64_t kernel_ns = 0;
    std::int64_t copy_count = 0;
    std::int64_t copy_ns = 0;
    std::int64_t gpu_busy_ns = 0;  // summed per-range unions
};
// By summed host time, largest first (ties by name).
std::vector<NvtxNameTotals> total_nvtx_ranges_by_name(const std::vector<NvtxRangeGpuTime>& ranges);

}  // namespace trainscope::profiler
