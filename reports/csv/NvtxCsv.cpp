#include "reports/csv/NvtxCsv.hpp"

#include <iterator>
#include <string>

#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/RankWork.hpp"

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

namespace {

void add_nvtx_rows(const RunRecord& run, const profiler::Trace& trace, std::int32_t rank,
                   std::vector<std::vector<CsvCell>>& rows) {
    const auto ranges = profiler::project_nvtx_ranges_to_gpu(trace);
    for (const auto& t : profiler::total_nvtx_ranges_by_name(ranges)) {
        const double n = static_cast<double>(t.count);
        rows.push_back({run.matrix_id, run.id, t.name, t.count, us(t.host_ns), us(t.host_ns) / n,
                        t.kernel_count, us(t.kernel_ns), t.copy_count, us(t.copy_ns),
                        us(t.gpu_busy_ns), us(t.gpu_busy_ns) / n, rank});
    }
}

}  // namespace

std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    if (!run.trace)
        return rows;
    // Correlation ids repeat across ranks: each rank's ranges are projected on its own.
    const auto ranks = profiler::ranks_of(*run.trace);
    if (ranks.size() == 1) {
        add_nvtx_rows(run, *run.trace, ranks.front(), rows);
        return rows;
    }
    for (const std::int32_t rank : ranks)
        add_nvtx_rows(run, profiler::trace_of_rank(*run.trace, rank), rank, rows);
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
