#include "profiler/analysis/ExposedCommunication.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "profiler/analysis/ControlCollectives.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/TrainingSteps.hpp"

namespace trainscope::profiler {

namespace {

struct Step {
    std::int64_t start_ns = 0;
    StringId name = kNoString;
};

struct RankParts {
    std::vector<Step> steps;
    std::unordered_map<std::uint64_t, std::int64_t> launch_at;     // correlation -> launch
    std::vector<std::pair<std::int64_t, Interval>> communication;  // (when launched, span)
};

}  // namespace

std::vector<ExposedCommunicationRow> analyze_exposed_communication(const Trace& trace,
                                                                   const TimeWindow& window) {
    std::map<std::int32_t, RankParts> parts;
    std::vector<signed char> step_name(trace.strings.size(), -1);
    std::vector<signed char> comm_name(trace.strings.size(), -1);
    for (const Activity& a : trace.activities) {
        if (a.lane >= trace.lanes.size() || a.name >= step_name.size())
            continue;
        const Lane& lane = trace.lanes[a.lane];
        RankParts& p = parts[lane.rank];
        if (lane.device < 0 && a.correlation != 0)
            p.launch_at.emplace(a.correlation, a.start_ns);
        if (lane.device < 0 &&
            (a.kind == ActivityKind::NvtxRange || a.kind == ActivityKind::HostOp)) {
            signed char& known = step_name[a.name];
            if (known < 0)
                known = is_training_step_name(trace.strings.at(a.name)) ? 1 : 0;
            if (known == 1)
                p.steps.push_back({a.start_ns, a.name});
        }
    }
    for (const Activity& a : trace.activities) {
        if (a.lane >= trace.lanes.size() || a.name >= comm_name.size())
            continue;
        bool comm = a.kind == ActivityKind::Collective && !is_control_collective(trace, a);
        if (a.kind == ActivityKind::Kernel) {
            signed char& known = comm_name[a.name];
            if (known < 0) {
                known = classify_kernel(trace.strings.at(a.name)) == KernelCategory::Communication
                            ? 1
                            : 0;
            }
            comm = known == 1;
        }
        if (!comm || a.end_ns <= a.start_ns)
            continue;
        RankParts& p = parts[trace.lanes[a.lane].rank];
        std::int64_t when = a.start_ns;
        if (const auto it = p.launch_at.find(a.correlation);
            a.correlation != 0 && it != p.launch_at.end())
            when = it->second;
        p.communication.push_back({when, Interval{a.start_ns, a.end_ns}});
    }
    const auto work = work_by_rank(trace);
    std::vector<ExposedCommunicationRow> rows;
    for (auto& [rank, p] : parts) {
        if (p.communication.empty())
            continue;
        std::sort(p.steps.begin(), p.steps.end(),
                  [](const Step& a, const Step& b) { return a.start_ns < b.start_ns; });
        const bool whole = p.steps.empty();
        if (whole)
            p.steps.push_back({std::numeric_limits<std::int64_t>::min(), kNoString});
        std::vector<std::vector<Interval>> by_step(p.steps.size());
        for (const auto& [when, span] : p.communication) {
            // The last step that began at or before the launch; work before the first
            // step belongs to no step.
            const auto after =
                std::upper_bound(p.steps.begin(), p.steps.end(), when,
                                 [](std::int64_t t, const Step& s) { return t < s.start_ns; });
            if (after == p.steps.begin())
                continue;
            by_step[static_cast<std::size_t>(after - p.steps.begin()) - 1].push_back(span);
        }
        const auto found = work.find(rank);
        const std::vector<Interval> no_compute;
        const std::vector<Interval>& compute =
            found == work.end() ? no_compute : found->second.compute;
        for (std::size_t i = 0; i < p.steps.size(); ++i) {
            if (!whole && !window.contains(p.steps[i].start_ns))
                continue;
            const std::vector<Interval> comm = merge_intervals(std::move(by_step[i]));
            ExposedCommunicationRow row;
            row.rank = rank;
            row.step = whole ? "(whole trace)" : trace.strings.at(p.steps[i].name);
            row.step_start_ns = whole ? 0 : p.steps[i].start_ns;
            row.communication_ns = total_length_ns(comm);
            row.exposed_ns = total_length_ns(subtract_intervals(comm, compute));
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

}  // namespace trainscope::profiler
