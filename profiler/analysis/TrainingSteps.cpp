#include "profiler/analysis/TrainingSteps.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

bool is_training_step_name(std::string_view name) {
    return name == "step" || name.starts_with("step ") || name.starts_with("ProfilerStep#");
}

std::int64_t count_training_steps(const Trace& trace) {
    // Names are interned: decide once per name, not once per activity.
    std::vector<signed char> step_name(trace.strings.size(), -1);
    std::int64_t steps = 0;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::NvtxRange && a.kind != ActivityKind::HostOp)
            continue;
        if (a.lane >= trace.lanes.size() || trace.lanes[a.lane].device >= 0)
            continue;
        if (a.name >= step_name.size())
            continue;
        signed char& known = step_name[a.name];
        if (known < 0)
            known = is_training_step_name(trace.strings.at(a.name)) ? 1 : 0;
        steps += known;
    }
    return steps;
}

TimeWindow training_steps_span(const Trace& trace) {
    std::vector<signed char> step_name(trace.strings.size(), -1);
    std::int64_t begin = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = std::numeric_limits<std::int64_t>::min();
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::NvtxRange && a.kind != ActivityKind::HostOp)
            continue;
        if (a.name >= step_name.size())
            continue;
        signed char& known = step_name[a.name];
        if (known < 0)
            known = is_training_step_name(trace.strings.at(a.name)) ? 1 : 0;
        if (known == 0)
            continue;
        begin = std::min(begin, a.start_ns);
        end = std::max(end, a.end_ns);
    }
    if (begin > end)
        return TimeWindow{};
    // The GPU runs behind the host: work launched inside the steps may start after the
    // last step's range has ended (Kineto traces without GPU copies of the steps, an
    // engine that does not wait at the end of a step). Its launch says where it belongs.
    const LaunchIndex launches(trace);
    std::int64_t last_end = end;
    for (const Activity& a : trace.activities) {
        if (!is_gpu_work(a.kind) || a.start_ns < end || a.correlation == 0)
            continue;
        if (const auto launch = launches.launch_of(a.correlation)) {
            const std::int64_t launched = trace.activities[*launch].start_ns;
            if (launched >= begin && launched < end)
                last_end = std::max(last_end, a.start_ns + 1);
        }
    }
    // Half-open: work starting exactly at the end is after it.
    return TimeWindow{begin, last_end};
}

}  // namespace trainscope::profiler
