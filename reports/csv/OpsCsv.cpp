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
    std::vector<std::vector<CsvCell>> rows;
    if (!run.trace)
        return rows;
    for (const auto& [rank, ops] : op_roofline_by_rank(*run.trace, roofs_of(run.metrics))) {
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
