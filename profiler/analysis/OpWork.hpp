#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The ops of one name that carry work (Activity::flops or bytes from the op's NVTX
// payload) together: how often they ran, what they had to do and how long the device
// took. An op's FLOPs and bytes are its own (a conv op's exclude its nested bias op's), so
// its device time is its own too: in a host-op trace (CPU backend) the op's duration less
// that of the work-carrying ops nested in it; in a GPU trace the kernels launched inside
// the op's range and not inside a nested op's (project_host_ranges_to_gpu, innermost).
// Launches join their kernels within their own rank.
struct OpWorkTotals {
    std::string name;
    std::int64_t count = 0;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t device_ns = 0;
};

// Whether an activity is an op that carries work (a host op with FLOPs or bytes from its
// payload): what the totals below are made of.
bool carries_op_work(const Activity& a);

// The metadata key the host tracer puts in every trace it records (merged into a CUDA
// run's, copied into a job's): the only source whose ops carry work (their NVTX payload).
inline constexpr const char* kHostTracerMetadataKey = "host.nvtx_injection";

// Whether a trace's activities may hold an op that carries work, from its header alone:
// false when no host tracer recorded into it (an imported trace), so no activity can.
bool may_carry_op_work(const Trace& header);

// Ops whose start lies in `window`, of every rank together; by device time, largest first
// (ties by name).
std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace,
                                                const TimeWindow& window = TimeWindow{});

// The same for each rank on its own (ops.csv's rows), by rank.
std::map<std::int32_t, std::vector<OpWorkTotals>> total_op_work_by_rank(
    const Trace& trace, const TimeWindow& window = TimeWindow{});

// The totals of a GPU trace's ops (a host-op trace's self times need the whole trace) as
// activities pass one at a time in trace order (analyze and report --csv read a huge
// run's rows without holding them); total_op_work_by_name and _by_rank of such a trace
// are this over every activity. Keeps the innermost projection's compact records
// (HostRangeProjectionAccumulator) and each picked op's name, rank, FLOPs and bytes.
class OpWorkAccumulator {
  public:
    // `lanes` must outlive the accumulator. Ops whose start lies in `window`.
    explicit OpWorkAccumulator(std::span<const Lane> lanes, const TimeWindow& window = {});
    void add(const Activity& a, std::size_t index);
    struct Totals {
        std::vector<OpWorkTotals> by_name;                          // total_op_work_by_name's
        std::map<std::int32_t, std::vector<OpWorkTotals>> by_rank;  // total_op_work_by_rank's
    };
    [[nodiscard]] Totals finish(const StringTable& strings) &&;

  private:
    struct Op {
        StringId name = 0;
        std::int32_t rank = 0;
        float flops = 0.0F;
        std::int64_t bytes = 0;
    };
    std::span<const Lane> lanes_;
    TimeWindow window_;
    HostRangeProjectionAccumulator projection_;
    std::vector<Op> ops_;  // the picked ops, in trace order (the projection's ranges' order)
};

// The host ops in the trace that carry work (flops or bytes), as indices into
// trace.activities: the instances of op `name` (the GUI's roofline selects them).
std::vector<std::size_t> op_instances(const Trace& trace, const std::string& name);

}  // namespace trainscope::profiler
