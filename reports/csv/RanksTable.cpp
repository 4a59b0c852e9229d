#include "reports/csv/RanksTable.hpp"

#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "profiler/analysis/RankWork.hpp"

namespace trainscope::reports {

namespace {

double ms(std::int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

}  // namespace

std::vector<CsvCell> ranks_header() {
    return {"matrix_id",       "run_id",           "rank",
            "span_ms",         "idle_pct",         "compute_pct",
            "non_compute_pct", "communication_ms", "overlapped_pct",
            "times_last",      "wait_caused_ms",   "slowest"};
}

std::vector<std::vector<CsvCell>> rank_rows(const RunRecord& run) {
    if (!run.trace || profiler::ranks_of(*run.trace).size() < 2)
        return {};
    return rank_rows(run, profiler::analyze_rank_time_breakdown(*run.trace),
                     profiler::analyze_stragglers(*run.trace));
}

std::vector<std::vector<CsvCell>> rank_rows(const RunRecord& run,
                                            const std::vector<profiler::RankTimeBreakdown>& ranks,
                                            const profiler::StragglerReport& stragglers) {
    std::vector<std::vector<CsvCell>> rows;
    for (const auto& r : ranks) {
        std::int64_t last = 0;
        std::int64_t caused = 0;
        for (const auto& s : stragglers.ranks) {
            if (s.rank == r.rank) {
                last = s.times_last;
                caused = s.wait_caused_ns;
            }
        }
        rows.push_back({run.matrix_id, run.id, r.rank, ms(r.span_ns), r.idle_percent(),
                        r.compute_percent(), r.non_compute_percent(), ms(r.communication_ns),
                        r.overlap_percent(), last, ms(caused),
                        r.rank == stragglers.slowest_rank ? "true" : "false"});
    }
    return rows;
}

}  // namespace trainscope::reports
