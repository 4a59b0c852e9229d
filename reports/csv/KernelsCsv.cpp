#include "reports/csv/KernelsCsv.hpp"

#include <iterator>
#include <string>
#include <utility>

#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/ShortKernelName.hpp"

namespace trainscope::reports {

namespace {

double to_us(double ns) {
    return ns / 1000.0;
}

// Copies and sets are named by the tracer, not by C++: only kernels are shortened.
std::string short_name(const profiler::KernelNameStats& entry) {
    return entry.category == profiler::KernelCategory::MemcpyMemset
               ? entry.name
               : profiler::shorten_kernel_name(entry.name);
}

}  // namespace

std::vector<CsvCell> kernels_header() {
    return {"matrix_id",
            "run_id",
            "kernel",
            "kernel_short",
            "category",
            "tensor_cores",
            "count",
            "total_us",
            "mean_us",
            "min_us",
            "max_us",
            "gpu_share_pct",
            "grid_x",
            "grid_y",
            "grid_z",
            "block_x",
            "block_y",
            "block_z",
            "registers_per_thread",
            "shared_mem_bytes",
            "rank"};
}

namespace {

void add_kernel_rows(const RunRecord& run, const profiler::Trace& trace, std::int32_t rank,
                     std::vector<std::vector<CsvCell>>& rows) {
    for (auto& row : kernel_rows(
             run, profiler::analyze_kernel_breakdown(trace),
             [&trace](std::size_t i) { return trace.activities.at(i); }, rank))
        rows.push_back(std::move(row));
}

}  // namespace

std::vector<std::vector<CsvCell>> kernel_rows(
    const RunRecord& run, const profiler::KernelBreakdown& breakdown,
    const std::function<profiler::Activity(std::size_t)>& activity_at, std::int32_t rank) {
    std::vector<std::vector<CsvCell>> rows;
    for (const auto& entry : breakdown.by_name) {
        const auto& s = entry.stats;
        std::vector<CsvCell> row{run.matrix_id,
                                 run.id,
                                 entry.name,
                                 short_name(entry),
                                 std::string(profiler::to_string(entry.category)),
                                 profiler::uses_tensor_cores(entry.name) ? "true" : "false",
                                 s.count,
                                 to_us(static_cast<double>(s.total_ns)),
                                 to_us(s.mean_ns),
                                 to_us(static_cast<double>(s.min_ns)),
                                 to_us(static_cast<double>(s.max_ns)),
                                 s.share * 100.0};
        // The launch configuration of the name's longest instance (the breakdown's).
        const profiler::Activity k = activity_at(entry.longest);
        if (entry.category != profiler::KernelCategory::MemcpyMemset &&
            k.kind == profiler::ActivityKind::Kernel) {
            for (const std::int32_t v : k.grid)
                row.emplace_back(v);
            for (const std::int32_t v : k.block)
                row.emplace_back(v);
            row.emplace_back(k.registers_per_thread);
            row.emplace_back(k.shared_memory_bytes);
        } else {
            row.resize(kernels_header().size() - 1);
        }
        row.emplace_back(rank);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::vector<CsvCell>> kernel_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    if (!run.trace)
        return rows;
    // A distributed job's run: one set of rows per rank, each over that rank's work.
    const auto ranks = profiler::ranks_of(*run.trace);
    if (ranks.size() == 1) {
        add_kernel_rows(run, *run.trace, ranks.front(), rows);
        return rows;
    }
    for (const std::int32_t rank : ranks)
        add_kernel_rows(run, profiler::trace_of_rank(*run.trace, rank), rank, rows);
    return rows;
}

CsvTable kernels_table(const std::vector<RunRecord>& runs) {
    CsvTable table{kernels_header()};
    for (const auto& run : runs) {
        auto rows = kernel_rows(run);
        table.insert(table.end(), std::make_move_iterator(rows.begin()),
                     std::make_move_iterator(rows.end()));
    }
    return table;
}

}  // namespace trainscope::reports
