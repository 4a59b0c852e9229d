#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// True for work that runs on a GPU engine: kernels, memcpy and memset.
bool is_gpu_work(ActivityKind kind);

// The intervals of the activities of the given kinds, grouped by device.
std::map<std::int32_t, std::vector<Interval>> intervals_by_device(
    const Trace& trace, std::initializer_list<ActivityKind> kinds);

}  // namespace trainscope::profiler
