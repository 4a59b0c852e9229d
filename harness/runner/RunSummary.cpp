#include "harness/runner/RunSummary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "harness/capture/HostLoadMonitor.hpp"

namespace trainscope::harness {

namespace {
std::string metric_text(const reports::RunRecord& run, const char* name, const char* format) {
    const reports::Metric* m = run.find_metric(name);
    return m != nullptr ? fmt::format(fmt::runtime(format), m->value) : "-";
}

double metric_or_zero(const reports::RunRecord& run, const char* name) {
    const reports::Metric* m = run.find_metric(name);
    return m != nullptr ? m->value : 0.0;
}

bool measured_on_busy_host(const reports::RunRecord& run) {
    return metric_or_zero(run, "host_other_cpu_pct") > kBusyHostOtherCpuPct ||
           metric_or_zero(run, "host_steal_pct") > kBusyHostStealPct;
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
                 metric_text(run, "images_per_s", "{:.0f}").c_str(),
                 metric_text(run, "step_ms_median", "{:.3f}").c_str(),
                 metric_text(run, "step_ms_ci_low", "{:.3f}").c_str(),
                 metric_text(run, "step_ms_ci_high", "{:.3f}").c_str(),
                 metric_text(run, "final_loss", "{:.4f}").c_str(),
                 metric_text(run, "test_accuracy", "{:.4f}").c_str());
    // So did a cell that shared its machine: say so where it is seen.
    if (measured_on_busy_host(run)) {
        std::fprintf(stderr,
                     "  WARNING: the machine was busy: other processes used %.1f %% of its CPU "
                     "time (hypervisor steal %.1f %%); these timings include waiting for cores\n",
                     metric_or_zero(run, "host_other_cpu_pct"),
                     metric_or_zero(run, "host_steal_pct"));
    }
    // A throttled GPU measured something other than its speed: say so where it is seen.
    if (const reports::Metric* throttled = run.find_metric("throttled_sample_pct");
        throttled != nullptr && throttled->value > 0.0) {
        const reports::Metric* reasons = run.find_metric("throttle_reasons_seen");
        const auto bits = reasons != nullptr ? static_cast<std::uint64_t>(reasons->value) : 0;
        std::fprintf(stderr,
                     "  WARNING: the GPU throttled during %.1f %% of the NVML samples (reasons "
                     "bitmask %s)\n",
                     throttled->value, fmt::format("{:#x}", bits).c_str());
    }
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
    for (const char* h : {"images/s", "step ms (median)", "peak MiB", "test acc", "status"}) {
        header.emplace_back(h);
    }
    std::vector<std::vector<std::string>> rows{header};
    for (const auto& run : runs) {
        std::vector<std::string> row{std::to_string(run.id)};
        const std::size_t axis_columns = header.size() - 5;  // run id .. last axis
        for (std::size_t i = 1; i < axis_columns; ++i) {
            row.push_back(axis_text(run, header[i] == "model_params" ? "depth" : header[i]));
        }
        row.push_back(metric_text(run, "images_per_s", "{:.0f}"));
        row.push_back(metric_text(run, "step_ms_median", "{:.3f}"));
        const reports::Metric* peak = run.find_metric("peak_mem_bytes");
        row.push_back(peak != nullptr ? fmt::format("{:.1f}", peak->value / (1024.0 * 1024.0))
                                      : "-");
        row.push_back(metric_text(run, "test_accuracy", "{:.4f}"));
        const reports::Metric* throttled = run.find_metric("throttled_sample_pct");
        row.push_back(std::string(to_string(run.status)) +
                      (throttled != nullptr && throttled->value > 0.0 ? " (throttled)" : "") +
                      (measured_on_busy_host(run) ? " (busy host)" : ""));
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
