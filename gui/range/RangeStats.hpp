#pragma once

#include <QString>
#include <cstdint>
#include <vector>

#include "gui/kernels/KernelStats.hpp"
#include "gui/timeline/TimelineData.hpp"

namespace trainscope::gui {

// What a device did during a time range: its busy time (union of its work, clipped to
// the range).
struct RangeBusy {
    std::int32_t device = -1;  // -1: the CPU backend's ops
    std::int64_t busy_ns = 0;
    std::int32_t rank = 0;  // a job's ranks each number their GPUs from 0
};

// Statistics of a timeline range selection, computed by the profiler's analyses
// restricted to the window (profiler::analyze_kernel_breakdown and analyze_gpu_busy
// with a TimeWindow): the GUI adds no statistics of its own. A trace of the CPU
// backend has no GPU work: its host ops are the device's work
// (profiler::host_ops_as_device_work), as in `trainscope analyze`.
struct RangeStats {
    double t0_ns = 0;
    double t1_ns = 0;
    bool host_ops = false;            // the work is the CPU backend's ops
    bool by_rank = false;             // a job's trace: devices are named with their rank
    std::int64_t activity_count = 0;  // work starting in [t0, t1)
    std::int64_t work_ns = 0;         // their summed durations
    std::vector<RangeBusy> busy;      // per device that worked in the range
    std::vector<KernelStat> kernels;  // computeKernelStats of the range

    [[nodiscard]] double durationNs() const { return t1_ns - t0_ns; }
};

RangeStats computeRangeStats(const TimelineData& data, double t0_ns, double t1_ns);

}  // namespace trainscope::gui
