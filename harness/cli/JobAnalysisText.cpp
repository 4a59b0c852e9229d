#include "harness/cli/JobAnalysisText.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "profiler/analysis/CollectiveBandwidth.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/ExposedCommunication.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "reports/csv/TerminalText.hpp"

namespace trainscope::harness {

namespace {

std::string ms(std::int64_t ns) {
    return fmt::format("{:.3f} ms", static_cast<double>(ns) * 1e-6);
}

std::string metadata(const profiler::Trace& trace, const std::string& key) {
    const auto it = trace.metadata.find(key);
    return it == trace.metadata.end() ? std::string() : it->second;
}

std::string size_text(std::int64_t bytes) {
    if (bytes <= 0)
        return "unknown";
    if (bytes >= (std::int64_t{1} << 20))
        return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
    if (bytes >= 1024)
        return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
    return fmt::format("{} B", bytes);
}

void print_breakdown(const std::vector<profiler::RankTimeBreakdown>& ranks,
                     const profiler::StragglerReport& stragglers) {
    std::printf(
        "Per rank (device work over its span: idle / compute / non-compute, communication "
        "counted as non-compute; docs/profiler.md):\n"
        "  %4s %14s %7s %9s %13s %15s %12s %10s %14s\n",
        "rank", "span", "idle %", "compute %", "non-compute %", "communication", "overlapped %",
        "times last", "wait caused");
    for (const auto& r : ranks) {
        std::int64_t last = 0;
        std::int64_t caused = 0;
        for (const auto& s : stragglers.ranks) {
            if (s.rank == r.rank) {
                last = s.times_last;
                caused = s.wait_caused_ns;
            }
        }
        std::printf("  %4d %14s %7.2f %9.2f %13.2f %15s %12.2f %10lld %14s\n", r.rank,
                    ms(r.span_ns).c_str(), r.idle_percent(), r.compute_percent(),
                    r.non_compute_percent(), ms(r.communication_ns).c_str(), r.overlap_percent(),
                    static_cast<long long>(last), ms(caused).c_str());
    }
}

void print_stragglers(const profiler::Trace& trace, const profiler::StragglerReport& s, int top) {
    const bool by_sequence =
        !s.collectives.empty() && std::all_of(s.collectives.begin(), s.collectives.end(),
                                              [](const auto& m) { return m.by_sequence; });
    std::printf("\nStragglers: %zu collectives joined by two or more ranks, matched by %s\n",
                s.collectives.size(),
                by_sequence ? "process group and sequence number"
                            : "order within process group and kind (the trace carries no "
                              "sequence numbers)");
    if (s.slowest_rank < 0) {
        std::printf("  no rank kept another waiting\n");
        return;
    }
    for (const auto& r : s.ranks) {
        if (r.rank != s.slowest_rank)
            continue;
        std::printf(
            "  slowest rank: %d (arrived last at %lld of %lld collectives, causing %s of "
            "waiting on the others, %.1f %% of all waiting)\n",
            r.rank, static_cast<long long>(r.times_last), static_cast<long long>(r.collectives),
            ms(r.wait_caused_ns).c_str(),
            s.total_wait_ns > 0 ? 100.0 * static_cast<double>(r.wait_caused_ns) /
                                      static_cast<double>(s.total_wait_ns)
                                : 0.0);
    }
    std::vector<const profiler::MatchedCollective*> worst;
    for (const auto& m : s.collectives)
        worst.push_back(&m);
    std::sort(worst.begin(), worst.end(),
              [](const auto* a, const auto* b) { return a->wait_caused_ns > b->wait_caused_ns; });
    std::printf("  most waiting caused:\n  %-14s %-12s %9s %6s %9s %14s %14s\n", "kind", "group",
                "sequence", "ranks", "last rank", "arrival spread", "wait caused");
    for (std::size_t i = 0; i < worst.size() && i < static_cast<std::size_t>(top); ++i) {
        const auto& m = *worst[i];
        const std::string group = trace.strings.at(m.group);
        std::printf(
            "  %-14s %-12s %9lld %6zu %9d %14s %14s\n",
            std::string(profiler::to_string(m.kind)).c_str(),
            group.empty() ? "(world)" : reports::printable_text(group).substr(0, 12).c_str(),
            static_cast<long long>(m.sequence), m.calls.size(), m.last_rank,
            ms(m.spread_ns()).c_str(), ms(m.wait_caused_ns).c_str());
    }
}

void print_bandwidth(const std::vector<profiler::CollectiveBandwidthRow>& rows) {
    if (rows.empty())
        return;
    std::printf(
        "\nCollective bandwidth (nccl-tests definitions: algbw = size / time, busbw = algbw x "
        "bus factor; time = mean call duration on its rank):\n"
        "  %-14s %12s %6s %7s %14s %12s %12s\n",
        "kind", "size", "ranks", "calls", "mean time", "algbw GB/s", "busbw GB/s");
    for (const auto& r : rows) {
        std::printf("  %-14s %12s %6d %7lld %11.3f us %12.3f %12.3f\n",
                    std::string(profiler::to_string(r.kind)).c_str(), size_text(r.bytes).c_str(),
                    r.ranks, static_cast<long long>(r.calls), r.mean_us, r.algbw_gbps,
                    r.busbw_gbps);
    }
    if (std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.bytes == 0; })) {
        std::printf(
            "  size unknown: the trace's record_param_comms carry no element counts (PyTorch "
            "before 2.1), so no bandwidth\n");
    }
}

void print_exposed(std::vector<profiler::ExposedCommunicationRow> rows, int top) {
    if (rows.empty())
        return;
    std::printf(
        "\nExposed communication per step (not overlapped by the rank's computation; %zu "
        "rank-steps, most exposed first):\n  %4s %-24s %15s %15s %9s\n",
        rows.size(), "rank", "step", "communication", "exposed", "exposed %");
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.exposed_ns > b.exposed_ns; });
    for (std::size_t i = 0; i < rows.size() && i < static_cast<std::size_t>(top); ++i) {
        const auto& r = rows[i];
        std::printf("  %4d %-24s %15s %15s %9.2f\n", r.rank,
                    reports::printable_text(r.step).substr(0, 24).c_str(),
                    ms(r.communication_ns).c_str(), ms(r.exposed_ns).c_str(),
                    100.0 * r.exposed_fraction());
    }
}

}  // namespace

void print_job_analysis(const profiler::Trace& trace, const profiler::JobAnalysis& job, int top) {
    const auto ranks = profiler::ranks_of(trace);
    const std::string backend = metadata(trace, "job.backend");
    const std::string spread = metadata(trace, "job.start_spread_ns");
    std::printf("Job: %zu ranks of a world of %d%s%s\n", ranks.size(), trace.world_size,
                backend.empty() ? "" : fmt::format(" ({})", backend).c_str(),
                spread.empty() ? ""
                               : fmt::format("; ranks' first events {} apart (files' own clocks)",
                                             ms(std::stoll(spread)))
                                     .c_str());
    const profiler::StragglerReport& stragglers = job.stragglers;
    if (stragglers.slowest_rank >= 0) {
        std::printf("Slowest rank: %d (the most waiting caused at collectives)\n",
                    stragglers.slowest_rank);
    }
    std::printf("\n");
    print_breakdown(job.ranks, stragglers);
    print_stragglers(trace, stragglers, top);
    print_bandwidth(job.bandwidth);
    print_exposed(job.exposed, top);
    std::printf("\nThe sections below pool every rank; `--rank N` gives them for one rank.\n\n");
}

void print_hta_analysis(const std::vector<profiler::RankTimeBreakdown>& rows) {
    const auto us = [](std::int64_t ns) { return static_cast<double>(ns) * 1e-3; };
    std::printf(
        "Temporal breakdown (Holistic Trace Analysis 0.5 definitions, docs/profiler.md):\n"
        "  %4s %16s %16s %20s %16s %9s %9s %13s\n",
        "rank", "idle_time(us)", "compute_time(us)", "non_compute_time(us)", "kernel_time(us)",
        "idle_%", "compute_%", "non_compute_%");
    for (const auto& r : rows) {
        std::printf("  %4d %16.1f %16.1f %20.1f %16.1f %9.2f %9.2f %13.2f\n", r.rank, us(r.idle_ns),
                    us(r.compute_ns), us(r.non_compute_ns), us(r.span_ns),
                    profiler::hta_percent(r.idle_ns, r.span_ns),
                    profiler::hta_percent(r.compute_ns, r.span_ns),
                    profiler::hta_percent(r.non_compute_ns, r.span_ns));
    }
    std::printf("\nCommunication/computation overlap (HTA definitions):\n  %4s %22s\n", "rank",
                "comp_comm_overlap_%");
    for (const auto& r : rows) {
        std::printf("  %4d %22.2f\n", r.rank,
                    profiler::hta_percent(r.overlap_ns, r.communication_ns));
    }
}

}  // namespace trainscope::harness
