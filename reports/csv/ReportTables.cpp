#include "reports/csv/ReportTables.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "reports/csv/KernelsCsv.hpp"
#include "reports/csv/MemoryCsv.hpp"
#include "reports/csv/NvtxCsv.hpp"
#include "reports/csv/OpsCsv.hpp"
#include "reports/csv/RanksTable.hpp"
#include "reports/csv/RunsCsv.hpp"
#include "reports/csv/StepsCsv.hpp"
#include "reports/store/ActivityReader.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/StoredRunAnalysis.hpp"

namespace trainscope::reports {

namespace {

// The tables of one run from one read of its stored rows (analyze_stored_run); false,
// with nothing added, where its trace must be read whole. The rows are built aside and
// added only once the last read that can fail has passed, so that the whole read's rows
// are not added after some of these.
bool add_streamed_run(const ResultsDatabase& db, const RunRecord& run,
                      const ReportSelection& selection, ReportTables& t) {
    std::optional<profiler::Trace> header = load_trace_header(db, run.id);
    if (!header)
        return true;  // no trace: no rows
    std::optional<StoredRunAnalysis> analysis = analyze_stored_run(db, run.id, *header);
    if (!analysis)
        return false;
    CsvTable kernels;
    if (selection.kernels) {
        // The launch configuration of each name's longest instance, read by its index.
        // A job's rows are per rank, each over that rank's work (kernel_rows(run)).
        const bool job = analysis->job.has_value();
        std::vector<std::uint32_t> longest;
        for (const profiler::KernelNameStats& entry : analysis->kernels.by_name) {
            if (!job)
                longest.push_back(static_cast<std::uint32_t>(entry.longest));
        }
        for (const auto& [rank, breakdown] : analysis->kernels_by_rank) {
            for (const profiler::KernelNameStats& entry : breakdown.by_name)
                longest.push_back(static_cast<std::uint32_t>(entry.longest));
        }
        std::sort(longest.begin(), longest.end());
        longest.erase(std::unique(longest.begin(), longest.end()), longest.end());
        std::vector<profiler::Activity> activities;
        try {
            activities = ActivityReader(db.path(), run.id).read(longest);
        } catch (const StoreError&) {
            return false;  // rows this reader cannot index: read the trace whole
        }
        const auto activity_at = [&](std::size_t index) {
            const auto it = std::lower_bound(longest.begin(), longest.end(), index);
            return activities.at(static_cast<std::size_t>(it - longest.begin()));
        };
        if (!job) {
            kernels = kernel_rows(run, analysis->kernels, activity_at,
                                  profiler::ranks_of(analysis->header).front());
        }
        for (const auto& [rank, breakdown] : analysis->kernels_by_rank) {
            for (auto& row : kernel_rows(run, breakdown, activity_at, rank))
                kernels.push_back(std::move(row));
        }
    }
    for (auto& row : kernels)
        t.kernels.push_back(std::move(row));
    const Roofs roofs = roofs_of(run.metrics);
    if (selection.ops) {
        std::map<std::int32_t, std::vector<OpRooflineRow>> by_rank;
        for (const auto& [rank, totals] : analysis->op_work.by_rank)
            by_rank[rank] = op_roofline(totals, roofs);
        for (auto& row : ops_rows(run, by_rank))
            t.ops.push_back(std::move(row));
    }
    if (selection.nvtx) {
        for (auto& row : nvtx_rows(run, std::move(analysis->nvtx_ranges)))
            t.nvtx.push_back(std::move(row));
    }
    if (selection.breakdowns) {
        if (auto roofline = op_roofline(analysis->op_work.by_name, roofs); !roofline.empty())
            t.rooflines[run.id] = std::move(roofline);
        t.breakdowns[run.id] = std::move(analysis->kernels);
        // A job's ranks table; a one-rank trace has none.
        if (analysis->job) {
            for (auto& row : rank_rows(run, analysis->job->ranks, analysis->job->stragglers)) {
                if (t.ranks.empty())
                    t.ranks.push_back(ranks_header());
                t.ranks.push_back(std::move(row));
            }
        }
    }
    return true;
}

}  // namespace

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
        if (add_streamed_run(db, run, selection, t))
            continue;
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
