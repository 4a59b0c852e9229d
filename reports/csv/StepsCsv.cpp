#include "reports/csv/StepsCsv.hpp"

#include <iterator>

namespace trainscope::reports {

std::vector<CsvCell> steps_header() {
    return {"matrix_id", "run_id",     "step",    "epoch",  "duration_ms", "duration_ns",
            "loss",      "loss_scale", "skipped", "warmup", "data_ms",     "data_ns"};
}

std::vector<std::vector<CsvCell>> step_rows(const RunRecord& run) {
    std::vector<std::vector<CsvCell>> rows;
    rows.reserve(run.steps.size());
    for (const StepRow& s : run.steps) {
        rows.push_back({run.matrix_id, run.id, s.step, s.epoch,
                        static_cast<double>(s.duration_ns) / 1e6, s.duration_ns, s.loss,
                        s.loss_scale, s.skipped ? "true" : "false", s.warmup ? "true" : "false",
                        s.data_ns ? CsvCell(static_cast<double>(*s.data_ns) / 1e6) : CsvCell(),
                        s.data_ns});
    }
    return rows;
}

CsvTable steps_table(const std::vector<RunRecord>& runs) {
    CsvTable table{steps_header()};
    for (const auto& run : runs) {
        auto rows = step_rows(run);
        table.insert(table.end(), std::make_move_iterator(rows.begin()),
                     std::make_move_iterator(rows.end()));
    }
    return table;
}

}  // namespace trainscope::reports
