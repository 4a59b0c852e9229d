#include "profiler/analysis/TracelensTimeline.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

namespace {

// TraceLens's interval algebra, generic over the time type: double µs when the source
// had fractional µs (as Python computed it), exact int64 ns otherwise (Python kept the
// integer µs as ints, so its arithmetic was exact too).
template <typename T>
struct Span {
    T begin;
    T end;
};

template <typename T>
std::vector<Span<T>> merge(std::vector<Span<T>> spans) {
    std::stable_sort(spans.begin(), spans.end(),
                     [](const Span<T>& a, const Span<T>& b) { return a.begin < b.begin; });
    std::vector<Span<T>> merged;
    for (const Span<T>& s : spans) {
        if (!merged.empty() && s.begin <= merged.back().end) {
            merged.back().end = std::max(merged.back().end, s.end);
        } else {
            merged.push_back(s);
        }
    }
    return merged;
}

template <typename T>
std::vector<Span<T>> subtract(const std::vector<Span<T>>& removed,
                              const std::vector<Span<T>>& from) {
    std::vector<Span<T>> result;
    std::size_t r = 0;
    for (const Span<T>& f : from) {
        T cursor = f.begin;
        while (r < removed.size() && removed[r].end <= f.begin)
            ++r;
        for (std::size_t k = r; k < removed.size() && removed[k].begin < f.end; ++k) {
            if (removed[k].begin > cursor)
                result.push_back({cursor, std::min(f.end, removed[k].begin)});
            cursor = std::max(cursor, removed[k].end);
            if (cursor >= f.end)
                break;
        }
        if (cursor < f.end)
            result.push_back({cursor, f.end});
    }
    return result;
}

template <typename T>
T length(const std::vector<Span<T>>& spans) {
    T total{};
    for (const Span<T>& s : spans)
        total += s.end - s.begin;  // left to right, like sum()
    return total;
}

struct Metrics {
    // In the order of TraceLens's CSV.
    static constexpr std::array<const char*, 8> kNames{
        "computation_time", "exposed_comm_time", "exposed_memcpy_time", "busy_time",
        "idle_time",        "total_time",        "total_comm_time",     "total_memcpy_time"};
};

template <typename T>
struct Groups {
    std::vector<Span<T>> all;
    std::vector<Span<T>> computation;
    std::vector<Span<T>> communication;
    std::vector<Span<T>> memcpy;
};

template <typename T>
std::array<T, 8> compute(const Groups<T>& g) {
    const auto comp = merge(g.computation);
    const auto comm = merge(g.communication);
    const auto copy = merge(g.memcpy);
    const auto all = merge(g.all);
    const T total = all.back().end - all.front().begin;
    const T comp_time = length(comp);
    const T comm_time = length(comm);
    const T exposed_comm = length(subtract(comp, comm));
    const T copy_time = length(copy);
    const T exposed_copy = length(subtract(comm, subtract(comp, copy)));
    const T busy = length(all);
    return {comp_time, exposed_comm, exposed_copy, busy, total - busy, total, comm_time, copy_time};
}

template <typename T, typename ToSpan>
std::array<T, 8> compute_for(const Trace& trace, ToSpan to_span) {
    const LaunchIndex launches(trace);
    Groups<T> g;
    for (const Activity& a : trace.activities) {
        const bool gpu = a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memcpy ||
                         a.kind == ActivityKind::Memset;
        if (!gpu || !launches.launch_of(a))
            continue;
        const Span<T> s = to_span(a);
        g.all.push_back(s);
        if (a.kind == ActivityKind::Memcpy) {
            g.memcpy.push_back(s);
        } else if (trace.strings.at(a.name).find("nccl") != std::string::npos) {
            g.communication.push_back(s);
        } else {
            g.computation.push_back(s);
        }
    }
    if (g.all.empty())
        return {};
    return compute(g);
}

}  // namespace

std::vector<TracelensTimelineRow> tracelens_gpu_timeline(const Trace& trace) {
    const auto it = trace.metadata.find("kineto.time_resolution");
    const bool fractional = it != trace.metadata.end() && it->second.starts_with("fractional");
    std::array<double, 8> us{};  // each metric in µs
    bool any = false;
    if (fractional) {
        // The file's own timestamp, µs as a double: the same double Python's JSON parser
        // produced from the text, since both round the same exact value once.
        const std::int64_t file_origin_ns = trace.base_ns - trace.source_clock_offset_ns;
        const auto values = compute_for<double>(trace, [&](const Activity& a) {
            const double ts = static_cast<double>(file_origin_ns + a.start_ns) / 1000.0;
            const double dur = static_cast<double>(a.duration_ns()) / 1000.0;
            return Span<double>{ts, ts + dur};
        });
        any = values[5] > 0.0 || values[3] > 0.0;
        us = values;
    } else {
        const auto ns = compute_for<std::int64_t>(trace, [](const Activity& a) {
            return Span<std::int64_t>{a.start_ns, a.end_ns};
        });
        any = ns[5] > 0 || ns[3] > 0;
        for (std::size_t i = 0; i < ns.size(); ++i)
            us[i] = static_cast<double>(ns[i]) / 1000.0;
    }
    if (!any)
        return {};
    std::vector<TracelensTimelineRow> rows;
    for (std::size_t i = 0; i < us.size(); ++i) {
        rows.push_back({Metrics::kNames[i], us[i] / 1e3, us[i] / us[5] * 100.0});
    }
    return rows;
}

}  // namespace trainscope::profiler
