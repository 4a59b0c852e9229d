#include "gui/kernels/KernelStats.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace trainscope::gui {

std::vector<KernelStat> computeKernelStats(const TimelineData& data) {
    return computeKernelStats(data, -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::infinity());
}

std::vector<KernelStat> computeKernelStats(const TimelineData& data, double t0_ns, double t1_ns) {
    std::unordered_map<std::uint32_t, std::size_t> by_name;
    std::vector<KernelStat> out;
    std::int64_t all = 0;
    const auto& order = data.gpuWorkByStart();
    auto start_less = [&](std::uint32_t idx, double t) {
        return static_cast<double>(data.activity(idx).start_ns) < t;
    };
    const auto first = std::lower_bound(order.begin(), order.end(), t0_ns, start_less);
    const auto last = std::lower_bound(first, order.end(), t1_ns, start_less);
    for (auto pos = first; pos != last; ++pos) {
        const std::uint32_t idx = *pos;
        const auto& a = data.activity(idx);
        const std::int64_t d = a.duration_ns();
        auto [it, inserted] = by_name.emplace(a.name, out.size());
        if (inserted) {
            KernelStat s;
            s.name = data.name(a.name);
            s.category = data.category(idx);
            s.min_ns = d;
            s.max_ns = d;
            s.longest = idx;
            out.push_back(s);
        }
        KernelStat& s = out[it->second];
        ++s.count;
        s.total_ns += d;
        s.min_ns = std::min(s.min_ns, d);
        if (d > s.max_ns || inserted) {
            s.max_ns = d;
            s.longest = idx;
        }
        all += d;
    }
    for (KernelStat& s : out)
        s.share = all > 0 ? static_cast<double>(s.total_ns) / static_cast<double>(all) : 0.0;
    std::sort(out.begin(), out.end(),
              [](const KernelStat& a, const KernelStat& b) { return a.total_ns > b.total_ns; });
    return out;
}

std::vector<KernelStat> mergeKernelStats(const std::vector<const std::vector<KernelStat>*>& parts) {
    std::vector<KernelStat> out;
    std::unordered_map<QString, std::size_t> by_name;
    std::int64_t all = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        for (const KernelStat& s : *parts[p]) {
            all += s.total_ns;
            auto [it, inserted] = by_name.emplace(s.name, out.size());
            if (inserted) {
                out.push_back(s);
                if (p > 0)
                    out.back().longest = kNoActivity;
                continue;
            }
            KernelStat& m = out[it->second];
            m.count += s.count;
            m.total_ns += s.total_ns;
            m.min_ns = std::min(m.min_ns, s.min_ns);
            m.max_ns = std::max(m.max_ns, s.max_ns);
        }
    }
    for (KernelStat& s : out)
        s.share = all > 0 ? static_cast<double>(s.total_ns) / static_cast<double>(all) : 0.0;
    std::sort(out.begin(), out.end(),
              [](const KernelStat& a, const KernelStat& b) { return a.total_ns > b.total_ns; });
    return out;
}

}  // namespace trainscope::gui
