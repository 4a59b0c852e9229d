#pragma once

#include <cstdint>
#include <vector>

#include "profiler/analysis/BusyTimeline.hpp"
#include "profiler/analysis/DeviceWorkAccumulator.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

struct GpuBusyOptions {
    // Idle gaps shorter than this are launch latency (the GPU waits for the next
    // kernel); longer ones mean the host, a sync or the input pipeline stalled it.
    std::int64_t short_gap_threshold_ns = 10'000;
    // Count memcpy/memset as busy too (default: kernels only).
    bool include_copies = false;
};

// Busy and idle time of one device over its kernel span: from the first kernel's
// start to the last kernel's end. busy = length of the union of kernel intervals, so
// kernels overlapping on two streams count once.
struct GpuBusy {
    std::int32_t rank = 0;
    std::int32_t device = -1;
    std::int64_t span_begin_ns = 0;
    std::int64_t span_end_ns = 0;
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
    std::int64_t idle_ns = 0;  // span - busy = short + long gaps
    std::int64_t short_gap_idle_ns = 0;
    std::int64_t long_gap_idle_ns = 0;
    std::int64_t short_gap_count = 0;
    std::int64_t long_gap_count = 0;
    double busy_fraction = 0.0;  // busy / span; 0 for an empty span
};

// One entry per device (profiler::work_device: rank and device) that ran at least one
// kernel, ordered by rank, then device.
std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options = {});
// The same inside `window` only: work is clipped to it, so busy is what each device
// did during the window (a timeline range selection) and the span lies inside it.
std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options,
                                      const TimeWindow& window);
// The same from work accumulated activity by activity (a streamed import); the two above
// are this over every activity of the trace.
std::vector<GpuBusy> analyze_gpu_busy(const DeviceWorkAccumulator& work,
                                      const GpuBusyOptions& options = {},
                                      const TimeWindow& window = {});

// The busy time of one device as a step function: busy.busy_ns(t0, t1) is, for any
// window, the busy_ns that analyze_gpu_busy gives for that window (the same intervals,
// the same device rule). The utilization plot and the timeline's range panel read it.
struct DeviceBusyTimeline {
    std::int32_t rank = 0;
    std::int32_t device = -1;
    BusyTimeline busy;
};
// One entry per device that ran work counted by `options` (kernels, with copies when
// include_copies), ordered by rank, then device.
std::vector<DeviceBusyTimeline> device_busy_timelines(const Trace& trace,
                                                      const GpuBusyOptions& options = {});
// The same from work accumulated activity by activity (the GUI's loader, which reads a
// huge run's rows without holding them); the one above is this over every activity.
std::vector<DeviceBusyTimeline> device_busy_timelines(const DeviceWorkAccumulator& work,
                                                      const GpuBusyOptions& options = {});

}  // namespace trainscope::profiler
