#include "profiler/analysis/TrainingSteps.hpp"

#include <vector>

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

}  // namespace trainscope::profiler
