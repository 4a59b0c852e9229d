#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "profiler/analysis/DeviceSweep.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/trace/ActivitySorter.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// One device's totals: what analyze_gpu_busy (default options, no window) and
// analyze_copy_compute_overlap give for it, without its intervals.
struct DeviceWorkTotals {
    DeviceKey device;
    std::int64_t kernel_count = 0;
    std::int64_t copy_count = 0;
    DeviceSweepFigures figures;  // the span, busy, copy and overlap times
};

// The run metrics' busy and overlap figures in little memory for an import of any size.
// DeviceWorkAccumulator keeps every device's intervals (the GUI draws them; the figures
// merge them at the end), which grows with the trace, since activities pass lane by lane
// and a later stream of the same device may fill any gap. Here each kernel and memcpy
// (host ops as kernels in a host-op trace, as the accumulator counts them) goes, as a
// compact record keyed by its device, into an ActivitySorter (runs on disk), and finish()
// reads them back in start order per device into a DeviceSweep (the figures' one
// definition, which the interval-union analyses use too), which holds only open intervals.
// Memory: the sorter's run buffer (64 Ki records, 5.5 MiB), then, while the runs merge, a
// 176 KiB read block per run: about 2.7 bytes per kernel or memcpy (7.5 MiB for the 2.8 M
// of the 10 GB Kineto trace, 75 MiB at 28 M), not bounded, but a fortieth of the record.
// The figures equal the interval-union analyses' (tests/profiler/DeviceWorkSummaryTest).
class DeviceWorkSummary {
  public:
    // `lanes` must outlive the summary; `host_ops_as_kernels` as DeviceWorkAccumulator's.
    // `run_capacity`: records sorted in memory at a time; a caller that holds the whole
    // trace already passes its work count, so that nothing goes to $TMPDIR.
    explicit DeviceWorkSummary(std::span<const Lane> lanes, bool host_ops_as_kernels = false,
                               std::size_t run_capacity = kRunCapacity);

    void add(const Activity& a);
    // One entry per device with kernels or memcpys, ordered by rank, then device. Throws
    // std::system_error when the temporary file cannot be written or read.
    [[nodiscard]] std::vector<DeviceWorkTotals> finish() &&;

    static constexpr std::size_t kRunCapacity = std::size_t{1} << 16;

  private:
    void add_work(DeviceKey key, const Activity& a, bool kernel);

    std::span<const Lane> lanes_;
    bool host_ops_as_kernels_;
    // Dense ids for the sorter's lane field, so that it orders by device, then start.
    std::map<DeviceKey, std::uint32_t> ids_;
    std::vector<DeviceWorkTotals> totals_;  // by dense id
    ActivitySorter sorter_;
};

}  // namespace trainscope::profiler
