#include "profiler/analysis/TrainingSteps.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

bool is_training_step_name(std::string_view name) {
    return name == "step" || name.starts_with("step ") || name.starts_with("ProfilerStep#");
}

namespace {

// The number at the end of a step name ("ProfilerStep#12", "step 12").
std::optional<std::int64_t> number_in_step_name(std::string_view name) {
    std::size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        --digits;
    std::int64_t n = 0;
    const char* end = name.data() + name.size();
    if (digits == name.size() || std::from_chars(name.data() + digits, end, n).ptr != end)
        return std::nullopt;
    return n;
}

}  // namespace

std::vector<TrainingStep> training_steps(const Trace& trace) {
    std::vector<signed char> step_name(trace.strings.size(), -1);
    std::vector<std::pair<TrainingStep, std::optional<std::int64_t>>> found;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::NvtxRange && a.kind != ActivityKind::HostOp)
            continue;
        if (a.lane >= trace.lanes.size() || trace.lanes[a.lane].device >= 0)
            continue;  // Kineto's GPU copies of the steps (see count_training_steps)
        if (a.name >= step_name.size())
            continue;
        signed char& known = step_name[a.name];
        if (known < 0)
            known = is_training_step_name(trace.strings.at(a.name)) ? 1 : 0;
        if (known != 0)
            found.push_back({{0, a.start_ns, a.end_ns, trace.lanes[a.lane].rank},
                             number_in_step_name(trace.strings.at(a.name))});
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) {
        return x.first.begin_ns < y.first.begin_ns;
    });
    // Numbered per rank: every rank runs the same steps, so their names repeat across
    // ranks but not within one.
    std::map<std::int32_t, std::set<std::int64_t>> numbers;
    bool named = true;
    for (const auto& [step, number] : found)
        named = named && number && numbers[step.rank].insert(*number).second;
    std::map<std::int32_t, std::int64_t> position;
    std::vector<TrainingStep> steps;
    steps.reserve(found.size());
    for (const auto& [found_step, number] : found) {
        TrainingStep step = found_step;
        const std::int64_t index = position[step.rank]++;
        step.number = named ? *number : index;
        steps.push_back(step);
    }
    return steps;
}

std::int64_t count_training_steps(const Trace& trace) {
    return static_cast<std::int64_t>(training_steps(trace).size());
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
        if (const auto launch = launches.launch_of(a)) {
            const std::int64_t launched = trace.activities[*launch].start_ns;
            if (launched >= begin && launched < end)
                last_end = std::max(last_end, a.start_ns + 1);
        }
    }
    // Half-open: work starting exactly at the end is after it.
    return TimeWindow{begin, last_end};
}

}  // namespace trainscope::profiler
