#include "reports/csv/MemoryCsv.hpp"

#include <iterator>

namespace trainscope::reports {

std::vector<CsvCell> memory_header() {
    return {"matrix_id",  "run_id",    "class",      "bytes_at_peak", "share_pct", "max_bytes",
            "peak_bytes", "peak_t_ms", "peak_phase", "peak_op",       "rank"};
}

namespace {

void add_peak_rows(const RunRecord& run, const MemoryPeak& peak,
                   std::vector<std::vector<CsvCell>>& rows) {
    const std::int64_t total = peak.total_bytes();
    const CsvCell t_ms = peak.t_ns ? CsvCell(static_cast<double>(*peak.t_ns) / 1e6) : CsvCell();
    for (const ClassPeak& c : peak.classes) {
        const CsvCell share =
            total > 0
                ? CsvCell(100.0 * static_cast<double>(c.bytes_at_peak) / static_cast<double>(total))
                : CsvCell();
        rows.push_back({run.matrix_id, run.id, c.tensor_class, c.bytes_at_peak, share, c.max_bytes,
                        total, t_ms, peak.phase, peak.op, peak.rank});
    }
}

}  // namespace

std::vector<std::vector<CsvCell>> memory_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    if (run.memory_peak)
        add_peak_rows(run, *run.memory_peak, rows);
    for (const MemoryPeak& peak : run.other_rank_memory_peaks)
        add_peak_rows(run, peak, rows);
    return rows;
}

CsvTable memory_table(const std::vector<RunRecord>& runs) {
    CsvTable table{memory_header()};
    for (const auto& run : runs) {
        auto rows = memory_rows(run);
        table.insert(table.end(), std::make_move_iterator(rows.begin()),
                     std::make_move_iterator(rows.end()));
    }
    return table;
}

}  // namespace trainscope::reports
