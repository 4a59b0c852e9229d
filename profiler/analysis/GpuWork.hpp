#pragma once

#include <compare>
#include <cstdint>
#include <span>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// True for work that runs on a GPU engine: kernels, memcpy and memset.
bool is_gpu_work(ActivityKind kind);

// One device of a job: ranks number their GPUs from 0 each, so a device ordinal alone
// would pool two ranks' "device 0" into one union. Ordered by rank, then device.
struct DeviceKey {
    std::int32_t rank = 0;
    std::int32_t device = -1;
    friend auto operator<=>(const DeviceKey&, const DeviceKey&) = default;
};

// The device an activity ran on: its own, or where the record names none (-1), its
// lane's; with its lane's rank. The one rule every per-device figure (busy time,
// overlap, the GUI's utilization) groups work by.
DeviceKey work_device(std::span<const Lane> lanes, const Activity& activity);

}  // namespace trainscope::profiler
