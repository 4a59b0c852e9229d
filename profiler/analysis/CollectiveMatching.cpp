#include "profiler/analysis/CollectiveMatching.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "profiler/analysis/ControlCollectives.hpp"

namespace trainscope::profiler {

std::vector<MatchedCollective> match_collectives(const Trace& trace, const TimeWindow& window) {
    // Each rank's calls in time order, so that "by order" means the same on every rank.
    std::vector<std::size_t> order(trace.collectives.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const CollectiveCall& x = trace.collectives[a];
        const CollectiveCall& y = trace.collectives[b];
        return std::tie(x.rank, x.start_ns, x.end_ns) < std::tie(y.rank, y.start_ns, y.end_ns);
    });
    // (by sequence, group, kind or -1, sequence or position) -> the matched collective
    using Key = std::tuple<bool, StringId, int, std::int64_t>;
    std::map<Key, MatchedCollective> matched;
    std::map<std::tuple<std::int32_t, StringId, CollectiveKind>, std::int64_t> position;
    for (const std::size_t i : order) {
        const CollectiveCall& c = trace.collectives[i];
        const bool by_sequence = c.sequence >= 0;
        std::int64_t seq = c.sequence;
        if (!by_sequence)
            seq = position[{c.rank, c.group, c.kind}]++;
        const Key key{by_sequence, c.group, by_sequence ? -1 : static_cast<int>(c.kind), seq};
        MatchedCollective& m = matched[key];
        if (m.calls.empty()) {
            m.group = c.group;
            m.kind = c.kind;
            m.sequence = seq;
            m.by_sequence = by_sequence;
        }
        m.calls.push_back(i);
    }
    std::vector<MatchedCollective> out;
    out.reserve(matched.size());
    for (auto& [key, m] : matched) {
        m.first_arrival_ns = trace.collectives[m.calls.front()].start_ns;
        m.last_arrival_ns = m.first_arrival_ns;
        m.last_rank = trace.collectives[m.calls.front()].rank;
        for (const std::size_t i : m.calls) {
            const CollectiveCall& c = trace.collectives[i];
            m.first_arrival_ns = std::min(m.first_arrival_ns, c.start_ns);
            if (c.start_ns > m.last_arrival_ns ||
                (c.start_ns == m.last_arrival_ns && c.rank < m.last_rank)) {
                m.last_arrival_ns = c.start_ns;
                m.last_rank = c.rank;
            }
        }
        for (const std::size_t i : m.calls)
            m.wait_caused_ns += m.wait_ns(trace.collectives[i].start_ns);
        if (window.contains(m.last_arrival_ns))
            out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const MatchedCollective& a, const MatchedCollective& b) {
        return std::tie(a.first_arrival_ns, a.sequence) < std::tie(b.first_arrival_ns, b.sequence);
    });
    return out;
}

StragglerReport analyze_stragglers(const Trace& trace, const TimeWindow& window) {
    StragglerReport report;
    std::map<std::int32_t, RankStraggling> ranks;
    for (const CollectiveCall& c : trace.collectives)
        ranks[c.rank].rank = c.rank;
    for (MatchedCollective& m : match_collectives(trace, window)) {
        if (m.calls.size() < 2 || is_control_collective(trace, trace.collectives[m.calls.front()]))
            continue;
        for (const std::size_t i : m.calls) {
            const CollectiveCall& c = trace.collectives[i];
            RankStraggling& r = ranks[c.rank];
            ++r.collectives;
            r.lateness_ns += c.start_ns - m.first_arrival_ns;
        }
        RankStraggling& last = ranks[m.last_rank];
        ++last.times_last;
        last.wait_caused_ns += m.wait_caused_ns;
        report.total_wait_ns += m.wait_caused_ns;
        report.collectives.push_back(std::move(m));
    }
    std::int64_t most = 0;
    for (const auto& [rank, r] : ranks) {
        report.ranks.push_back(r);
        if (r.wait_caused_ns > most) {
            most = r.wait_caused_ns;
            report.slowest_rank = rank;
        }
    }
    return report;
}

}  // namespace trainscope::profiler
