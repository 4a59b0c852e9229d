#include "profiler/analysis/GpuWork.hpp"

namespace trainscope::profiler {

bool is_gpu_work(ActivityKind kind) {
    return kind == ActivityKind::Kernel || kind == ActivityKind::Memcpy ||
           kind == ActivityKind::Memset;
}

DeviceKey work_device(std::span<const Lane> lanes, const Activity& activity) {
    const Lane& lane = lanes[activity.lane];
    return {lane.rank, activity.device >= 0 ? activity.device : lane.device};
}

}  // namespace trainscope::profiler
