#include "profiler/analysis/ExposedCommunication.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "profiler/analysis/ControlCollectives.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/TrainingSteps.hpp"

namespace trainscope::profiler {

ExposedCommunicationAccumulator::ExposedCommunicationAccumulator(const Trace& header)
    : header_(header), step_name_(header.strings.size(), -1) {}

void ExposedCommunicationAccumulator::add(const Activity& a) {
    if (a.lane >= header_.lanes.size() || a.name >= step_name_.size())
        return;
    const Lane& lane = header_.lanes[a.lane];
    RankParts& p = parts_[lane.rank];
    if (lane.device < 0)
        launches_.add_call(lane.rank, a.correlation, a.start_ns);
    if (lane.device < 0 && (a.kind == ActivityKind::NvtxRange || a.kind == ActivityKind::HostOp)) {
        signed char& known = step_name_[a.name];
        if (known < 0)
            known = is_training_step_name(header_.strings.at(a.name)) ? 1 : 0;
        if (known == 1)
            p.steps.push_back({a.start_ns, a.name});
    }
    bool comm = a.kind == ActivityKind::Collective && !is_control_collective(header_, a);
    if (a.kind == ActivityKind::Kernel)
        comm = comm_names_.is_communication(a.name, header_.strings);
    if (!comm || a.end_ns <= a.start_ns)
        return;
    p.communication.push_back({a.correlation, Interval{a.start_ns, a.end_ns}});
}

std::vector<ExposedCommunicationRow> ExposedCommunicationAccumulator::finish(
    const std::map<std::int32_t, RankWork>& work, const TimeWindow& window) && {
    std::vector<ExposedCommunicationRow> rows;
    launches_.seal();
    for (auto& [rank, p] : parts_) {
        if (p.communication.empty())
            continue;
        const auto launch_of = [this, of_rank = rank](const Piece& piece) {
            const std::int64_t* start = launches_.find(of_rank, piece.correlation);
            return start != nullptr ? *start : piece.span.begin_ns;
        };
        std::sort(p.steps.begin(), p.steps.end(),
                  [](const Step& a, const Step& b) { return a.start_ns < b.start_ns; });
        const bool whole = p.steps.empty();
        if (whole)
            p.steps.push_back({std::numeric_limits<std::int64_t>::min(), kNoString});
        std::vector<std::vector<Interval>> by_step(p.steps.size());
        for (const Piece& piece : p.communication) {
            // The last step that began at or before the launch; work before the first
            // step belongs to no step.
            const std::int64_t when = launch_of(piece);
            const auto after =
                std::upper_bound(p.steps.begin(), p.steps.end(), when,
                                 [](std::int64_t t, const Step& s) { return t < s.start_ns; });
            if (after == p.steps.begin())
                continue;
            by_step[static_cast<std::size_t>(after - p.steps.begin()) - 1].push_back(piece.span);
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
            row.step = whole ? "(whole trace)" : header_.strings.at(p.steps[i].name);
            row.step_start_ns = whole ? 0 : p.steps[i].start_ns;
            row.communication_ns = total_length_ns(comm);
            row.exposed_ns = total_length_ns(subtract_intervals(comm, compute));
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::vector<ExposedCommunicationRow> analyze_exposed_communication(const Trace& trace,
                                                                   const TimeWindow& window) {
    ExposedCommunicationAccumulator exposed(trace);
    for (const Activity& a : trace.activities)
        exposed.add(a);
    return std::move(exposed).finish(work_by_rank(trace), window);
}

}  // namespace trainscope::profiler
