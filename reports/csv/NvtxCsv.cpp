#include "reports/csv/NvtxCsv.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>

#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

namespace trainscope::reports {

namespace {

struct NvtxTotals {
    std::int64_t count = 0;
    std::int64_t host_ns = 0;
    std::int64_t kernel_count = 0;
    std::int64_t kernel_ns = 0;
    std::int64_t copy_count = 0;
    std::int64_t copy_ns = 0;
    std::int64_t gpu_busy_ns = 0;
};

double us(std::int64_t ns) {
    return static_cast<double>(ns) / 1000.0;
}

}  // namespace

std::vector<CsvCell> nvtx_header() {
    return {"matrix_id",     "run_id",       "range",        "count",
            "host_total_us", "host_mean_us", "kernel_count", "gpu_kernel_us",
            "copy_count",    "gpu_copy_us",  "gpu_busy_us",  "gpu_busy_mean_us"};
}

std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    if (!run.trace)
        return rows;
    std::map<std::string, NvtxTotals> by_name;
    for (const auto& r : profiler::project_nvtx_ranges_to_gpu(*run.trace)) {
        NvtxTotals& t = by_name[r.name];
        ++t.count;
        t.host_ns += r.host_end_ns - r.host_begin_ns;
        t.kernel_count += r.kernel_count;
        t.kernel_ns += r.kernel_ns;
        t.copy_count += r.copy_count;
        t.copy_ns += r.copy_ns;
        t.gpu_busy_ns += r.gpu_busy_ns;
    }
    std::vector<std::pair<std::string, NvtxTotals>> sorted(by_name.begin(), by_name.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.second.host_ns > b.second.host_ns;
    });
    for (const auto& [name, t] : sorted) {
        const double n = static_cast<double>(t.count);
        rows.push_back({run.matrix_id, run.id, name, t.count, us(t.host_ns), us(t.host_ns) / n,
                        t.kernel_count, us(t.kernel_ns), t.copy_count, us(t.copy_ns),
                        us(t.gpu_busy_ns), us(t.gpu_busy_ns) / n});
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
