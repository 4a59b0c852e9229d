#include "profiler/analysis/RankTimeBreakdown.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/RankWork.hpp"

namespace trainscope::profiler {

namespace {

RankTimeBreakdown breakdown_of(std::int32_t rank, Interval span, const std::vector<Interval>& all,
                               const std::vector<Interval>& compute,
                               const std::vector<Interval>& communication) {
    RankTimeBreakdown b;
    b.rank = rank;
    b.span_ns = span.length_ns();
    b.idle_ns = b.span_ns - total_length_ns(all);
    b.compute_ns = total_length_ns(compute);
    b.non_compute_ns = b.span_ns - b.compute_ns - b.idle_ns;
    b.communication_ns = total_length_ns(communication);
    b.overlap_ns = total_length_ns(intersect_intervals(communication, compute));
    return b;
}

}  // namespace

std::vector<RankTimeBreakdown> rank_time_breakdown(
    const std::map<std::int32_t, RankWork>& by_rank) {
    std::vector<RankTimeBreakdown> rows;
    for (const auto& [rank, work] : by_rank) {
        if (work.all.empty())
            continue;
        RankTimeBreakdown b = breakdown_of(rank, {work.first_ns, work.last_ns}, work.all,
                                           work.compute, work.communication);
        b.work_count = static_cast<std::int64_t>(work.all.size());
        rows.push_back(b);
    }
    return rows;
}

namespace {

// HTA's kernel types (hta/utils/utils.py get_kernel_type), by regular expressions
// anchored at the start of the name (re.match).
enum class HtaType { Communication, Memory, Computation, Other };

HtaType hta_type(std::string_view name) {
    if (name.starts_with("nccl") && name.find("Kernel", 4) != std::string_view::npos)
        return HtaType::Communication;
    if (name.starts_with("Memcpy") || name.starts_with("Memset") || name.starts_with("dma"))
        return HtaType::Memory;
    // (^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync): Python's alternation makes the
    // middle part ".*Memcpy" or "Memset" at the start.
    if (name.find("Memcpy") != std::string_view::npos ||
        name.find("Sync") != std::string_view::npos)
        return HtaType::Other;
    return HtaType::Computation;
}

// HTA rounds fractional-µs times inwards to whole µs on the file's own clock.
struct HtaClock {
    bool fractional = false;
    std::int64_t file_offset_ns = 0;  // file timestamp (ns) = trace time + this

    [[nodiscard]] Interval round(std::int64_t start_ns, std::int64_t end_ns) const {
        if (!fractional)
            return {start_ns, end_ns};
        const auto floor_us = [](std::int64_t ns) {
            const std::int64_t q = ns / 1000;
            return (ns % 1000 != 0 && ns < 0) ? q - 1 : q;
        };
        const std::int64_t s = start_ns + file_offset_ns;
        const std::int64_t e = end_ns + file_offset_ns;
        const std::int64_t s_us = floor_us(s) + (s % 1000 != 0 ? 1 : 0);
        return {s_us * 1000 - file_offset_ns, floor_us(e) * 1000 - file_offset_ns};
    }
};

}  // namespace

HtaBreakdownAccumulator::HtaBreakdownAccumulator(const Trace& header)
    : header_(header), is_step_(header.strings.size(), -1), type_of_(header.strings.size(), -1) {}

void HtaBreakdownAccumulator::add(const Activity& a) {
    if (a.lane >= header_.lanes.size())
        return;
    const Lane& lane = header_.lanes[a.lane];
    if (a.name < is_step_.size()) {
        signed char& known = is_step_[a.name];
        if (known < 0)
            known = header_.strings.at(a.name).find("ProfilerStep") != std::string::npos ? 1 : 0;
        if (known == 1) {
            step_names_.insert(a.name);
            if (lane.device < 0) {  // a CPU event: HTA's CPUOperatorFilter
                auto [it, fresh] = last_step_start_.emplace(lane.rank, a.start_ns);
                if (!fresh)
                    it->second = std::max(it->second, a.start_ns);
            }
        }
    }
    if (lane.device < 0)
        launches_.add_call(lane.rank, a.correlation, a.start_ns);
    if (a.kind != ActivityKind::Kernel && a.kind != ActivityKind::Memcpy &&
        a.kind != ActivityKind::Memset)
        return;
    signed char& type = type_of_[a.name];
    if (type < 0)
        type = static_cast<signed char>(hta_type(header_.strings.at(a.name)));
    ranks_[lane.rank].work.push_back({a.correlation, a.start_ns, a.end_ns, type});
}

std::vector<RankTimeBreakdown> HtaBreakdownAccumulator::finish() && {
    HtaClock clock;
    if (const auto it = header_.metadata.find("kineto.time_resolution");
        it != header_.metadata.end())
        clock.fractional = it->second.rfind("fractional", 0) == 0;
    clock.file_offset_ns = header_.base_ns - header_.source_clock_offset_ns;
    // HTA filters only when its symbol table (all ranks) holds more than one step name.
    const bool drop_last_step = step_names_.size() > 1;

    struct Raw {
        std::vector<Interval> all, compute, communication;
        std::int64_t count = 0;
        // Zero-length work still bounds HTA's kernel_time, though a union drops it.
        Interval bounds{std::numeric_limits<std::int64_t>::max(),
                        std::numeric_limits<std::int64_t>::min()};
    };
    std::map<std::int32_t, Raw> raw;
    launches_.seal();
    for (auto& [rank, parts] : ranks_) {
        const auto last = last_step_start_.find(rank);
        for (const Work& w : parts.work) {
            if (drop_last_step) {
                const std::int64_t* launch = launches_.find(rank, w.correlation);
                if (last == last_step_start_.end() || launch == nullptr || *launch >= last->second)
                    continue;
            }
            const Interval span = clock.round(w.start_ns, w.end_ns);
            Raw& r = raw[rank];
            ++r.count;
            r.bounds.begin_ns = std::min(r.bounds.begin_ns, span.begin_ns);
            r.bounds.end_ns = std::max(r.bounds.end_ns, span.end_ns);
            r.all.push_back(span);
            if (w.type == static_cast<signed char>(HtaType::Computation))
                r.compute.push_back(span);
            else if (w.type == static_cast<signed char>(HtaType::Communication))
                r.communication.push_back(span);
        }
    }
    std::vector<RankTimeBreakdown> rows;
    for (auto& [rank, r] : raw) {
        RankTimeBreakdown b = breakdown_of(rank, r.bounds, merge_intervals(std::move(r.all)),
                                           merge_intervals(std::move(r.compute)),
                                           merge_intervals(std::move(r.communication)));
        b.work_count = r.count;
        rows.push_back(b);
    }
    return rows;
}

namespace {

std::vector<RankTimeBreakdown> hta_breakdown(const Trace& trace) {
    HtaBreakdownAccumulator hta(trace);
    for (const Activity& a : trace.activities)
        hta.add(a);
    return std::move(hta).finish();
}

}  // namespace

std::vector<RankTimeBreakdown> analyze_rank_time_breakdown(const Trace& trace,
                                                           const TimeWindow& window,
                                                           BreakdownDefinitions definitions) {
    return definitions == BreakdownDefinitions::Hta
               ? hta_breakdown(trace)
               : rank_time_breakdown(work_by_rank(trace, window));
}

double hta_percent(std::int64_t part, std::int64_t whole) {
    if (whole == 0)
        return 0.0;
    const double value = 100.0 * (static_cast<double>(part) / static_cast<double>(whole));
    char text[64];
    std::snprintf(text, sizeof text, "%.2f", value);
    return std::strtod(text, nullptr);
}

}  // namespace trainscope::profiler
