#include "reports/csv/OpsCsv.hpp"

#include <string>

#include "profiler/analysis/RankWork.hpp"

namespace trainscope::reports {

std::vector<CsvCell> ops_header() {
    return {"matrix_id",       "run_id",        "op",
            "category",        "count",         "flops",
            "min_bytes",       "device_us",     "intensity_flop_per_byte",
            "achieved_gflops", "achieved_gbps", "roof_pct",
            "bound",           "rank"};
}

namespace {

void add_rows(const RunRecord& run, const profiler::Trace& trace, const Roofs& roofs,
              std::int32_t rank, std::vector<std::vector<CsvCell>>& rows) {
    for (const OpRooflineRow& r : op_roofline(trace, roofs)) {
        rows.push_back({run.matrix_id, run.id, r.name, r.category, r.count, r.flops, r.bytes,
                        static_cast<double>(r.device_ns) / 1000.0, r.intensity,
                        r.achieved_flops_per_s * 1e-9, r.achieved_bytes_per_s * 1e-9, r.roof_pct,
                        std::string(to_string(r.bound)), rank});
    }
}

}  // namespace

std::vector<std::vector<CsvCell>> ops_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    if (!run.trace)
        return rows;
    const Roofs roofs = roofs_of(run.metrics);
    // Correlation ids repeat across ranks: each rank's ops are projected on its own.
    const auto ranks = profiler::ranks_of(*run.trace);
    if (ranks.size() == 1) {
        add_rows(run, *run.trace, roofs, ranks.front(), rows);
        return rows;
    }
    for (const std::int32_t rank : ranks)
        add_rows(run, profiler::trace_of_rank(*run.trace, rank), roofs, rank, rows);
    return rows;
}

}  // namespace trainscope::reports
