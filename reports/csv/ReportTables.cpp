#include "reports/csv/ReportTables.hpp"

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "reports/csv/KernelsCsv.hpp"
#include "reports/csv/MemoryCsv.hpp"
#include "reports/csv/NvtxCsv.hpp"
#include "reports/csv/OpsCsv.hpp"
#include "reports/csv/RanksTable.hpp"
#include "reports/csv/RunsCsv.hpp"
#include "reports/csv/StepsCsv.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

ReportTables build_report_tables(const ResultsDatabase& db, const std::vector<RunRecord>& runs,
                                 const ReportSelection& selection, const PivotSpec& pivot) {
    ReportTables t;
    if (selection.matrix)
        t.matrix = matrix_pivot_table(runs, pivot);
    if (selection.runs)
        t.runs = runs_table(runs);
    if (selection.steps)
        t.steps = steps_table(runs);
    if (selection.memory)
        t.memory = memory_table(runs);
    if (selection.kernels)
        t.kernels = {kernels_header()};
    if (selection.nvtx)
        t.nvtx = {nvtx_header()};
    if (selection.ops)
        t.ops = {ops_header()};
    if (!selection.kernels && !selection.nvtx && !selection.ops && !selection.breakdowns)
        return t;
    for (const auto& stored : runs) {
        RunRecord run;  // identity only, plus its trace
        run.id = stored.id;
        run.matrix_id = stored.matrix_id;
        run.metrics = stored.metrics;  // the roofs of ops.csv
        run.trace = load_trace(db, stored.id);
        if (!run.trace)
            continue;
        // A CPU-backend run has no kernels: its backend ops stand in for them, as in
        // `trainscope analyze`.
        RunRecord work_run;
        const RunRecord* work = &run;
        if (profiler::is_host_op_trace(*run.trace)) {
            work_run.id = run.id;
            work_run.matrix_id = run.matrix_id;
            work_run.trace = profiler::host_ops_as_device_work(*run.trace);
            work = &work_run;
        }
        if (selection.kernels) {
            for (auto& row : kernel_rows(*work))
                t.kernels.push_back(std::move(row));
        }
        if (selection.nvtx) {
            for (auto& row : nvtx_rows(run))
                t.nvtx.push_back(std::move(row));
        }
        if (selection.ops) {
            for (auto& row : ops_rows(run))
                t.ops.push_back(std::move(row));
        }
        if (selection.breakdowns) {
            t.breakdowns[run.id] = profiler::analyze_kernel_breakdown(*work->trace);
            if (auto roofline = op_roofline(*run.trace, roofs_of(run.metrics)); !roofline.empty())
                t.rooflines[run.id] = std::move(roofline);
            for (auto& row : rank_rows(run)) {
                if (t.ranks.empty())
                    t.ranks.push_back(ranks_header());
                t.ranks.push_back(std::move(row));
            }
        }
    }
    return t;
}

}  // namespace trainscope::reports
