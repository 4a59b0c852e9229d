#pragma once

#include <map>
#include <span>
#include <vector>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Each device's work as activities pass one at a time: the intervals of its kernels,
// copies (memcpy) and sets (memset), keyed by work_device. An interval that starts
// inside the one before it of its kind is joined to it, which keeps the union (all the
// analyses measure) and makes a stream's back-to-back work one interval; no activity is
// held. The one source of busy time and copy/compute overlap: the whole-trace analyses
// feed it every activity, a streamed import (reports' trace metrics) each as it passes.
class DeviceWorkAccumulator {
  public:
    struct Work {
        std::vector<Interval> kernels;
        std::vector<Interval> copies;
        std::vector<Interval> sets;
        // Activities seen, empty ones too: a device with only empty work is still listed.
        std::int64_t kernel_count = 0;
        std::int64_t copy_count = 0;
        std::int64_t set_count = 0;
    };

    // `lanes` must outlive the accumulator. `host_ops_as_kernels`: in a host-op trace
    // (is_host_op_trace, a CPU run) the host ops count as kernels on their lane's device,
    // as host_ops_as_device_work makes them.
    explicit DeviceWorkAccumulator(std::span<const Lane> lanes, bool host_ops_as_kernels = false);
    // Every activity of a whole trace.
    static DeviceWorkAccumulator of(const Trace& trace, bool host_ops_as_kernels = false);

    void add(const Activity& a);
    // Moves all work `ns` earlier: activities that passed on an absolute clock, rebased
    // once their first start is known (the GUI's timeline).
    void shift_earlier(std::int64_t ns);
    [[nodiscard]] const std::map<DeviceKey, Work>& devices() const { return devices_; }

  private:
    Work& work_of(DeviceKey key);

    std::span<const Lane> lanes_;
    bool host_ops_as_kernels_;
    std::map<DeviceKey, Work> devices_;
    // Consecutive activities mostly share a device: spares the map lookup.
    DeviceKey last_key_;
    Work* last_work_ = nullptr;
};

}  // namespace trainscope::profiler
