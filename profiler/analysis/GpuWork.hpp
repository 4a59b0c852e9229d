#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// True for work that runs on a GPU engine: kernels, memcpy and memset.
bool is_gpu_work(ActivityKind kind);

// The device an activity ran on: its own, or where the record names none (-1), its
// lane's. The one rule every per-device figure (busy time, overlap, the GUI's
// utilization) groups work by.
std::int32_t work_device(const Trace& trace, const Activity& activity);

// The intervals of the activities of the given kinds, grouped by work_device.
std::map<std::int32_t, std::vector<Interval>> intervals_by_device(
    const Trace& trace, std::initializer_list<ActivityKind> kinds);

}  // namespace trainscope::profiler
