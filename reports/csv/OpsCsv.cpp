#include "reports/csv/OpsCsv.hpp"

#include <string>

namespace trainscope::reports {

std::vector<CsvCell> ops_header() {
    return {"matrix_id",       "run_id",        "op",
            "category",        "count",         "flops",
            "min_bytes",       "device_us",     "intensity_flop_per_byte",
            "achieved_gflops", "achieved_gbps", "roof_pct",
            "bound",           "rank"};
}

std::vector<std::vector<CsvCell>> ops_rows(const RunRecord& run) {
    if (!run.trace)
        return {};
    return ops_rows(run, op_roofline_by_rank(*run.trace, roofs_of(run.metrics)));
}

std::vector<std::vector<CsvCell>> ops_rows(
    const RunRecord& run, const std::map<std::int32_t, std::vector<OpRooflineRow>>& by_rank) {
    std::vector<std::vector<CsvCell>> rows;
    for (const auto& [rank, ops] : by_rank) {
        for (const OpRooflineRow& r : ops) {
            rows.push_back({run.matrix_id, run.id, r.name, r.category, r.count, r.flops, r.bytes,
                            static_cast<double>(r.device_ns) / 1000.0, r.intensity,
                            r.achieved_flops_per_s * 1e-9, r.achieved_bytes_per_s * 1e-9,
                            r.roof_pct, std::string(to_string(r.bound)), rank});
        }
    }
    return rows;
}

}  // namespace trainscope::reports
