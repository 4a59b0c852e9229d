#include "reports/csv/RunsCsv.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "reports/metrics/MetricTags.hpp"
#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::reports {

const std::vector<std::string>& runs_csv_metric_columns() {
    static const std::vector<std::string> columns{
        metric_tag::images_per_s,         metric_tag::step_ms_median,
        metric_tag::step_ms_mean,         metric_tag::step_ms_stdev,
        metric_tag::step_ms_p5,           metric_tag::step_ms_p95,
        metric_tag::step_ms_ci_low,       metric_tag::step_ms_ci_high,
        metric_tag::step_count,           metric_tag::step_rse,
        metric_tag::noise_target_met,     metric_tag::train_time_s,
        metric_tag::peak_mem_bytes,       metric_tag::final_loss,
        metric_tag::test_accuracy,        metric_tag::time_to_target_s,
        metric_tag::gpu_busy_pct,         metric_tag::skipped_steps,
        metric_tag::tracing_overhead_pct, metric_tag::parameter_count};
    return columns;
}

std::vector<std::vector<CsvCell>> runs_table(const std::vector<RunRecord>& runs) {
    const auto& fixed = runs_csv_metric_columns();
    std::set<std::string> extra;
    for (const auto& run : runs) {
        for (const auto& m : run.metrics) {
            if (std::find(fixed.begin(), fixed.end(), m.name) == fixed.end())
                extra.insert(m.name);
        }
    }
    std::vector<std::string> metric_columns(fixed);
    metric_columns.insert(metric_columns.end(), extra.begin(), extra.end());

    std::vector<std::vector<CsvCell>> table;
    std::vector<CsvCell> header{"matrix_id", "run_id", "status", "error", "source"};
    for (const auto& axis : axis_names())
        header.emplace_back(axis);
    header.emplace_back("emulated");
    header.emplace_back("device_name");
    for (const auto& m : metric_columns)
        header.emplace_back(m);
    table.push_back(std::move(header));

    for (const auto& run : runs) {
        std::vector<CsvCell> row{run.matrix_id, run.id, std::string(to_string(run.status)),
                                 run.error, run.source};
        for (const auto& axis : axis_names()) {
            const std::string value = axis_value(run.axes, axis);
            if (axis == "batch" || axis == "threads" || axis == "seed") {
                row.emplace_back(axis == "batch"     ? CsvCell(run.axes.batch)
                                 : axis == "threads" ? CsvCell(run.axes.threads)
                                                     : CsvCell(run.axes.seed));
            } else if (axis == "learning_rate") {
                row.emplace_back(run.axes.learning_rate);
            } else {
                row.emplace_back(value);
            }
        }
        row.emplace_back(run.emulated ? "true" : "false");
        const auto device_name = run.environment.find("device_name");
        row.emplace_back(device_name != run.environment.end() ? device_name->second : "");
        for (const auto& name : metric_columns) {
            const Metric* m = run.find_metric(name);
            if (m == nullptr)
                row.emplace_back();
            else if (std::isnan(m->value))
                row.emplace_back(std::string(kDivergedText));
            else
                row.emplace_back(m->value);
        }
        table.push_back(std::move(row));
    }
    return table;
}

void write_runs_csv(const std::vector<RunRecord>& runs, const std::filesystem::path& file) {
    CsvFileWriter writer(file);
    for (const auto& row : runs_table(runs))
        writer.write_row(row);
    writer.commit();
}

}  // namespace trainscope::reports
