#include "profiler/analysis/GpuWork.hpp"

#include <algorithm>

namespace trainscope::profiler {

bool is_gpu_work(ActivityKind kind) {
    return kind == ActivityKind::Kernel || kind == ActivityKind::Memcpy ||
           kind == ActivityKind::Memset;
}

std::int32_t work_device(const Trace& trace, const Activity& activity) {
    return activity.device >= 0 ? activity.device : trace.lanes.at(activity.lane).device;
}

std::map<std::int32_t, std::vector<Interval>> intervals_by_device(
    const Trace& trace, std::initializer_list<ActivityKind> kinds) {
    std::map<std::int32_t, std::vector<Interval>> result;
    for (const Activity& a : trace.activities) {
        if (std::find(kinds.begin(), kinds.end(), a.kind) == kinds.end())
            continue;
        result[work_device(trace, a)].push_back({a.start_ns, a.end_ns});
    }
    return result;
}

}  // namespace trainscope::profiler
