#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "profiler/analysis/IntervalSet.hpp"
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

// The projection as activities pass one at a time in trace order (analyze and report
// --csv read a huge run's rows without holding them); project_host_ranges_to_gpu is this
// over every activity of a trace. What it keeps are compact records, not activities: each
// projected range (48 bytes), each API call's thread, start and correlation (24 bytes per
// call, grouped by thread), each GPU work item's rank, kind, correlation and interval (32
// bytes), and in a host-op trace each op's interval.
class HostRangeProjectionAccumulator {
  public:
    // `lanes` must outlive the accumulator. `project` picks the ranges; `host_op_trace`:
    // the trace is a CPU-backend one (is_host_op_trace), whose ops are the ranges' work.
    HostRangeProjectionAccumulator(std::span<const Lane> lanes,
                                   std::function<bool(const Activity&)> project,
                                   bool host_op_trace);
    // The NVTX ranges of host NVTX lanes (project_nvtx_ranges_to_gpu's).
    static HostRangeProjectionAccumulator nvtx(std::span<const Lane> lanes, bool host_op_trace);

    // `index`: the activity's index in the trace (NvtxRangeGpuTime::range_index).
    void add(const Activity& a, std::size_t index);
    // The ranges in trace order; `strings` names them.
    [[nodiscard]] std::vector<NvtxRangeGpuTime> finish(
        const StringTable& strings, Attribution attribution = Attribution::inclusive) &&;

    // A host thread of one rank: two ranks on two nodes may share a pid and a thread id.
    using ThreadKey = std::tuple<std::int32_t, std::int64_t, std::int64_t>;  // (rank, pid, tid)
    struct Range {
        std::size_t index = 0;
        ThreadKey thread;
        StringId name = 0;
        std::uint16_t depth = 0;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
    };
    struct Op {
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
    };
    // The GPU work of every launch, sorted by (rank, correlation) at finish: correlation
    // ids count per process, so a job's ranks reuse them. Each API call finds its
    // launch's work once, by binary search, and a range then sums the work of the calls
    // inside it; a hash map of every work item cost more memory and a lookup per range a
    // call lies in.
    struct LaunchedWork {
        std::int32_t rank = 0;
        bool kernel = false;  // else a copy or set
        std::uint64_t correlation = 0;
        Interval interval;
    };
    // A call's launched work: [first, first + count) of the sorted LaunchedWork. `first`
    // of a call with work (count > 0) is unique to its launch, so it stands for the
    // (rank, correlation) key when a range's calls are deduplicated; calls without work
    // are left out.
    struct ApiCall {
        std::int64_t start_ns = 0;
        std::uint64_t correlation = 0;
        std::uint32_t first = 0;
        std::uint32_t count = 0;
    };

  private:
    std::span<const Lane> lanes_;
    std::function<bool(const Activity&)> project_;
    bool host_op_trace_;
    std::vector<Range> ranges_;
    std::map<ThreadKey, std::vector<ApiCall>> calls_by_thread_;
    std::map<ThreadKey, std::vector<Op>> ops_by_thread_;
    std::vector<LaunchedWork> launched_work_;
};

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
