#include "reports/csv/NvtxCsv.hpp"

#include <iterator>
#include <map>
#include <string>

#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

namespace trainscope::reports {

namespace {

double us(std::int64_t ns) {
    return static_cast<double>(ns) / 1000.0;
}

}  // namespace

std::vector<CsvCell> nvtx_header() {
    return {"matrix_id",    "run_id",           "range",         "count",      "host_total_us",
            "host_mean_us", "kernel_count",     "gpu_kernel_us", "copy_count", "gpu_copy_us",
            "gpu_busy_us",  "gpu_busy_mean_us", "rank"};
}

std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run) {
    if (!run.trace)
        return {};
    return nvtx_rows(run, profiler::project_nvtx_ranges_to_gpu(*run.trace));
}

std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run,
                                            std::vector<profiler::NvtxRangeGpuTime> projected) {
    std::vector<std::vector<CsvCell>> rows;
    // The projection joins each rank's launches within that rank; the rows are per rank.
    std::map<std::int32_t, std::vector<profiler::NvtxRangeGpuTime>> by_rank;
    for (profiler::NvtxRangeGpuTime& r : projected)
        by_rank[r.rank].push_back(std::move(r));
    for (const auto& [rank, ranges] : by_rank) {
        for (const auto& t : profiler::total_nvtx_ranges_by_name(ranges)) {
            const double n = static_cast<double>(t.count);
            rows.push_back({run.matrix_id, run.id, t.name, t.count, us(t.host_ns),
                            us(t.host_ns) / n, t.kernel_count, us(t.kernel_ns), t.copy_count,
                            us(t.copy_ns), us(t.gpu_busy_ns), us(t.gpu_busy_ns) / n, rank});
        }
    }
    return rows;
}

CsvTable nvtx_table(const std::vector<RunRecord>& runs) {
    CsvTable table{nvtx_header()};
    for (const auto& run : runs) {
        auto rows = nvtx_rows(run);
        table.insert(table.end(), std::make_move_iterator(rows.begin()),
                     std::make_move_iterator(rows.end()));
    }
    return table;
}

}  // namespace trainscope::reports
