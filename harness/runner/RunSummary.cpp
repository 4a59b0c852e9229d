#include "harness/runner/RunSummary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "reports/metrics/MetricCatalog.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/metrics/ScalingEfficiency.hpp"
#include "reports/quality/MeasurementWarnings.hpp"
#include "reports/quality/TracingOverheadSummary.hpp"

namespace trainscope::harness {

namespace {
std::string metric_text(const reports::RunRecord& run, const char* name, const char* format) {
    const reports::Metric* m = run.find_metric(name);
    if (m == nullptr)
        return "-";
    if (std::isnan(m->value))
        return std::string(reports::kDivergedText);
    return fmt::format(fmt::runtime(format), m->value);
}

std::string axis_text(const reports::RunRecord& run, const std::string& axis) {
    if (axis == "depth" || axis == "width")
        return run.axes.model_params;
    return reports::axis_value(run.axes, axis);
}
}  // namespace

std::string cell_label(const Cell& cell, const std::vector<std::string>& varying_axes) {
    std::string label;
    for (const auto& axis : varying_axes) {
        if (!label.empty())
            label += ' ';
        label += axis + "=" + cell.at(axis);
    }
    return label.empty() ? cell.at("model") : label;
}

void print_run_result(const reports::RunRecord& run) {
    if (run.status == reports::RunStatus::Skipped) {
        std::fprintf(stderr, "  skipped: %s\n", run.error.c_str());
        return;
    }
    if (run.status == reports::RunStatus::Failed) {
        std::fprintf(stderr, "  FAILED: %s\n", run.error.c_str());
        return;
    }
    std::fprintf(stderr,
                 "  %s images/s, median step %s ms (95%% CI of mean %s-%s ms), final loss %s, "
                 "test accuracy %s\n",
                 metric_text(run, reports::metric_tag::images_per_s, "{:.0f}").c_str(),
                 metric_text(run, reports::metric_tag::step_ms_median, "{:.3f}").c_str(),
                 metric_text(run, reports::metric_tag::step_ms_ci_low, "{:.3f}").c_str(),
                 metric_text(run, reports::metric_tag::step_ms_ci_high, "{:.3f}").c_str(),
                 metric_text(run, reports::metric_tag::final_loss, "{:.4f}").c_str(),
                 metric_text(run, reports::metric_tag::test_accuracy, "{:.4f}").c_str());
    if (run.memory_peak) {
        for (const std::string& line : reports::memory_peak_lines(*run.memory_peak))
            std::fprintf(stderr, "  %s\n", line.c_str());
    }
    if (const auto overhead = reports::tracing_overhead_summary(run))
        std::fprintf(stderr, "  tracing overhead: %s\n", overhead->c_str());
    // Contention or throttling means the timings measured something else too: say so
    // where they are seen.
    for (const reports::MeasurementWarning& warning : reports::measurement_warnings(run)) {
        std::fprintf(stderr, "  WARNING: %s\n", warning.text.c_str());
    }
}

std::optional<std::int64_t> run_to_open(const std::vector<reports::RunRecord>& runs,
                                        const std::vector<std::int64_t>& traced_ids) {
    std::optional<std::int64_t> chosen;
    double slowest = 0.0;
    for (const reports::RunRecord& run : runs) {
        if (std::find(traced_ids.begin(), traced_ids.end(), run.id) == traced_ids.end())
            continue;
        const reports::Metric* rate = run.find_metric(reports::metric_tag::images_per_s);
        const double images_per_s = rate != nullptr ? rate->value : 0.0;
        if (!chosen || images_per_s < slowest) {
            chosen = run.id;
            slowest = images_per_s;
        }
    }
    return chosen;
}

void print_summary_table(const std::vector<reports::RunRecord>& runs,
                         const std::vector<std::string>& varying_axes) {
    std::vector<std::string> header{"run"};
    for (const auto& axis : varying_axes) {
        if (axis == "width" &&
            std::find(varying_axes.begin(), varying_axes.end(), "depth") != varying_axes.end()) {
            continue;  // both print model_params
        }
        header.push_back(axis == "depth" || axis == "width" ? "model_params" : axis);
    }
    const std::size_t axis_columns = header.size();  // run id .. last axis
    // Data-parallel matrices also say how well they scale and what communication costs.
    const bool parallel = std::any_of(runs.begin(), runs.end(), [](const reports::RunRecord& run) {
        return run.axes.ranks.value_or(1) > 1;
    });
    header.emplace_back("images/s");
    if (parallel) {
        for (const char* h : {"scaling eff.", "comm %", "exposed %"})
            header.emplace_back(h);
    }
    for (const char* h : {"step ms (median)", "peak MiB", "test acc", "status"}) {
        header.emplace_back(h);
    }
    std::vector<std::vector<std::string>> rows{header};
    for (const auto& run : runs) {
        std::vector<std::string> row{std::to_string(run.id)};
        for (std::size_t i = 1; i < axis_columns; ++i) {
            row.push_back(axis_text(run, header[i] == "model_params" ? "depth" : header[i]));
        }
        row.push_back(metric_text(run, reports::metric_tag::images_per_s, "{:.0f}"));
        if (parallel) {
            const auto efficiency = reports::scaling_efficiency(run, runs);
            row.push_back(efficiency ? fmt::format("{:.2f}", *efficiency) : "-");
            const reports::Metric* comm = run.find_metric(reports::metric_tag::communication_share);
            const reports::Metric* exposed =
                run.find_metric(reports::metric_tag::exposed_communication_share);
            row.push_back(comm != nullptr ? fmt::format("{:.1f}", 100.0 * comm->value) : "-");
            row.push_back(exposed != nullptr ? fmt::format("{:.1f}", 100.0 * exposed->value) : "-");
        }
        row.push_back(metric_text(run, reports::metric_tag::step_ms_median, "{:.3f}"));
        const reports::Metric* peak = run.find_metric(reports::metric_tag::peak_mem_bytes);
        row.push_back(peak != nullptr ? fmt::format("{:.1f}", peak->value / (1024.0 * 1024.0))
                                      : "-");
        row.push_back(metric_text(run, reports::metric_tag::test_accuracy, "{:.4f}"));
        std::string status(to_string(run.status));
        for (const reports::MeasurementWarning& warning : reports::measurement_warnings(run)) {
            status += " (" + warning.tag + ")";
        }
        row.push_back(std::move(status));
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    std::fputs("\n", stderr);
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            line += fmt::format("{:<{}}  ", row[i], widths[i]);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

}  // namespace trainscope::harness
