#include "reports/html/HtmlReportWriter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>
#include <system_error>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/formats/OutputFile.hpp"
#include "reports/html/HtmlText.hpp"
#include "reports/html/SvgBarChart.hpp"
#include "reports/html/SvgBoxPlot.hpp"
#include "reports/html/SvgLineChart.hpp"
#include "reports/html/SvgRoofline.hpp"
#include "reports/metrics/MetricInterval.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::reports {

namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; max-width: 1100px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top;
  white-space: pre-wrap; overflow-wrap: break-word; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 12px; background: #f7f7f7;
  padding: 6px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
p.note { color: #555; font-size: 13px; }
p.warn { color: #8a5a00; font-size: 13px; }
svg.chart { display: block; margin: 8px 0; background: #fff; }
svg .title { font-size: 15px; font-weight: bold; fill: #222; }
svg .tick, svg .legend { font-size: 12px; fill: #333; }
svg .label { font-size: 13px; fill: #222; }
svg .grid { stroke: #e3e3e3; } svg .axis { stroke: #333; }
)";

const Metric* metric(const RunRecord& run, std::string_view name) {
    return run.find_metric(name);
}

// Axes whose values differ between the runs: they name a cell.
std::vector<std::string> varying_axes(const std::vector<RunRecord>& runs) {
    std::vector<std::string> axes;
    for (const auto& axis : axis_names()) {
        std::set<std::string> values;  // an empty value (an imported trace) names nothing
        for (const auto& run : runs) {
            std::string value = axis_value(run.axes, axis);
            if (!value.empty())
                values.insert(std::move(value));
        }
        if (values.size() > 1)
            axes.push_back(axis);
    }
    return axes;
}

std::string cell_label(const RunRecord& run, const std::vector<std::string>& axes) {
    std::string label = fmt::format("run {}", run.id);
    const char* separator = ": ";
    for (const auto& axis : axes) {
        const std::string value = axis_value(run.axes, axis);
        if (value.empty())
            continue;
        label += fmt::format("{}{}={}", separator, axis, value);
        separator = ", ";
    }
    return label;
}

std::string memory_strategy(const RunRecord& run) {
    std::string key;
    for (const char* axis : {"allocator", "host_memory", "transfer", "placement", "activations"}) {
        const std::string value = axis_value(run.axes, axis);
        if (value.empty() || value == "n/a")
            continue;
        if (!key.empty())
            key += ", ";
        key += fmt::format("{}={}", axis, value);
    }
    return key.empty() ? "default" : key;
}

// Numbers in HTML tables are shown with at most three decimals (the CSV keeps them exact).
std::string display_text(const CsvCell& cell) {
    const std::string& text = cell.text();
    if (!cell.is_number() || text.find('.') == std::string::npos ||
        text.find_first_of("eE") != std::string::npos)
        return text;
    std::string rounded = fmt::format("{:.3f}", std::stod(text));
    while (rounded.back() == '0')
        rounded.pop_back();
    if (rounded.back() == '.')
        rounded.pop_back();
    return rounded;
}

std::string cell_html(const CsvCell& cell, bool header) {
    const char* tag = header ? "th" : "td";
    return fmt::format("<{0}{1}>{2}</{0}>", tag,
                       cell.is_number() && !header ? " class=\"num\"" : "",
                       html_escape(display_text(cell)));
}

std::string table_html(const CsvTable& table) {
    std::string html = "<table>\n";
    for (std::size_t r = 0; r < table.size(); ++r) {
        html += "<tr>";
        for (const auto& cell : table[r])
            html += cell_html(cell, r == 0);
        html += "</tr>\n";
    }
    html += "</table>\n";
    return html;
}

std::string environment_section(const HtmlReportInput& input) {
    std::string html = "<h2>Environment</h2>\n";
    std::map<std::string, std::set<std::string>> values;
    for (const auto& run : input.runs) {
        for (const auto& [key, value] : run.environment)
            values[key].insert(value);
    }
    CsvTable env{{"key", "value"}};
    for (const auto& [key, set] : values) {
        std::string joined;
        for (const auto& v : set)
            joined += (joined.empty() ? "" : " | ") + v;
        env.push_back({key, joined});
    }
    if (env.size() > 1)
        html += table_html(env);
    else
        html += "<p class=\"note\">The runs record no environment.</p>\n";
    if (!input.matrices.empty()) {
        CsvTable matrices{
            {"matrix_id", "name", "created_utc", "trainscope_version", "git_revision"}};
        for (const auto& m : input.matrices)
            matrices.push_back({m.id, m.name, m.created_utc, m.trainscope_version, m.git_revision});
        html += "<h3>Matrices</h3>\n" + table_html(matrices);
        for (const auto& m : input.matrices) {
            html += fmt::format("<p class=\"note\">Definition of matrix {}:</p>\n<pre>{}</pre>\n",
                                m.id, html_escape(m.definition));
        }
    }
    return html;
}

std::string runs_section(const HtmlReportInput& input, const std::vector<std::string>& axes) {
    CsvTable table{{"run", "status", metric_tag::images_per_s, metric_tag::step_ms_median,
                    metric_tag::peak_mem_bytes, "error"}};
    for (const auto& run : input.runs) {
        auto value = [&](const char* name) {
            const Metric* m = metric(run, name);
            return m != nullptr ? CsvCell(m->value) : CsvCell();
        };
        std::string status(to_string(run.status));
        for (const MeasurementWarning& warning : measurement_warnings(run))
            status += " (" + warning.tag + ")";
        table.push_back({cell_label(run, axes), status, value(metric_tag::images_per_s),
                         value(metric_tag::step_ms_median), value(metric_tag::peak_mem_bytes),
                         run.error});
    }
    std::string html = "<h3>Runs</h3>\n" + table_html(table);
    // Timings taken on a busy machine or a throttling GPU: the reader must see why.
    for (const auto& run : input.runs) {
        for (const MeasurementWarning& warning : measurement_warnings(run)) {
            html += fmt::format("<p class=\"warn\">Run {}: {}.</p>\n",
                                html_escape(cell_label(run, axes)), html_escape(warning.text));
        }
    }
    return html;
}

std::string throughput_section(const HtmlReportInput& input) {
    LineChart chart;
    chart.title = "Throughput against batch size, per precision";
    chart.x_label = "batch size";
    chart.y_label = "images/s";
    chart.x_categories = pivot_axis_values(input.runs, "batch");
    // precision -> batch -> the ok runs measured there
    std::map<std::string, std::map<std::string, std::vector<const RunRecord*>>> runs_at;
    for (const auto& run : input.runs) {
        if (run.status == RunStatus::Ok && metric(run, metric_tag::images_per_s) != nullptr)
            runs_at[run.axes.precision][axis_value(run.axes, "batch")].push_back(&run);
    }
    if (runs_at.empty())
        return "<h2>Throughput</h2>\n<p class=\"note\">No successful run measured images/s.</p>\n";
    for (const auto& [precision, by_batch] : runs_at) {
        LineSeries series{precision, {}};
        for (const auto& x : chart.x_categories) {
            const auto it = by_batch.find(x);
            if (it == by_batch.end())
                continue;
            // The GUI's run chart draws the same point (reports::metric_point).
            const auto point = metric_point(it->second, metric_tag::images_per_s);
            LinePoint p{x, point->value, std::nullopt, std::nullopt};
            if (point->interval) {
                p.low = point->interval->low;
                p.high = point->interval->high;
            }
            series.points.push_back(p);
        }
        chart.series.push_back(std::move(series));
    }
    return "<h2>Throughput</h2>\n" + render_svg_line_chart(chart) +
           "<p class=\"note\">Mean images/s of the successful runs at each point; whiskers: the "
           "95 % confidence interval of the mean step time (step_ms_ci_low/high) as images/s, "
           "spanning every run's interval where every run at the point has one.</p>\n";
}

std::string steps_section(const HtmlReportInput& input, const std::vector<std::string>& axes) {
    std::vector<BoxStats> boxes;
    for (const auto& run : input.runs) {
        std::vector<double> ms;
        for (const auto& s : run.steps) {
            if (!s.warmup)
                ms.push_back(static_cast<double>(s.duration_ns) / 1e6);
        }
        if (!ms.empty())
            boxes.push_back(box_stats(cell_label(run, axes), std::move(ms)));
    }
    if (boxes.empty())
        return "<h2>Step time</h2>\n<p class=\"note\">No run recorded measured steps.</p>\n";
    return "<h2>Step time</h2>\n" +
           render_svg_box_plot("Step time per cell (measured steps)", "step time (ms)", boxes) +
           "<p class=\"note\">Box: p25 to p75 with the median; whiskers: p5 and p95; warm-up "
           "steps excluded.</p>\n";
}

std::string kernels_section(const HtmlReportInput& input, const std::vector<std::string>& axes) {
    BarChart chart;
    chart.title = "GPU time by kernel category per traced cell";
    chart.value_label = "GPU time (ms, summed durations)";
    for (int c = 0; c < profiler::kKernelCategoryCount; ++c)
        chart.series_order.emplace_back(
            profiler::to_string(static_cast<profiler::KernelCategory>(c)));
    for (const auto& run : input.runs) {
        const auto it = input.kernels.find(run.id);
        if (it == input.kernels.end() || it->second.by_category.empty())
            continue;
        Bar bar{cell_label(run, axes), {}};
        for (int c = 0; c < profiler::kKernelCategoryCount; ++c) {
            for (const auto& cat : it->second.by_category) {
                if (static_cast<int>(cat.category) == c) {
                    bar.segments.push_back({std::string(profiler::to_string(cat.category)),
                                            static_cast<double>(cat.stats.total_ns) / 1e6});
                }
            }
        }
        chart.bars.push_back(std::move(bar));
    }
    if (chart.bars.empty())
        return "<h2>Kernels</h2>\n<p class=\"note\">No run has a trace with GPU work.</p>\n";
    return "<h2>Kernels</h2>\n" + render_svg_bar_chart(chart);
}

std::string roofline_section(const HtmlReportInput& input, const std::vector<std::string>& axes) {
    std::string charts;
    for (const auto& run : input.runs) {
        const auto it = input.rooflines.find(run.id);
        if (it == input.rooflines.end())
            continue;
        charts += render_svg_roofline("Roofline: " + cell_label(run, axes), it->second,
                                      roofs_of(run.metrics));
    }
    if (charts.empty())
        return {};
    return "<h2>Roofline</h2>\n<p class=\"note\">Each traced cell's ops by arithmetic "
           "intensity and achieved FLOP/s under the memory and compute roofs of its device "
           "(ops.csv has the figures); a circle's area is the op's share of device time.</p>\n" +
           charts;
}

std::string ranks_section(const HtmlReportInput& input) {
    if (input.ranks.size() < 2)
        return {};
    return "<h2>Ranks</h2>\n<p class=\"note\">Each rank of a distributed job's run: idle / "
           "compute / non-compute shares of its device work's span (communication is "
           "non-compute), communication overlapped by computation, and how often it arrived "
           "last at a collective and the waiting that caused the others.</p>\n" +
           table_html(input.ranks);
}

std::string memory_section(const HtmlReportInput& input, const std::vector<std::string>& axes) {
    BarChart chart;
    chart.title = "Peak memory per memory strategy";
    chart.value_label = "peak memory (MiB)";
    std::vector<std::pair<std::string, Bar>> bars;
    for (const auto& run : input.runs) {
        const Metric* peak = metric(run, metric_tag::peak_mem_bytes);
        if (peak == nullptr)
            continue;
        const std::string strategy = memory_strategy(run);
        bars.push_back(
            {strategy, Bar{cell_label(run, axes), {{strategy, peak->value / 1048576.0}}}});
    }
    if (bars.empty())
        return "<h2>Memory</h2>\n<p class=\"note\">No run recorded its peak memory.</p>\n";
    std::stable_sort(bars.begin(), bars.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [strategy, bar] : bars) {
        if (std::find(chart.series_order.begin(), chart.series_order.end(), strategy) ==
            chart.series_order.end())
            chart.series_order.push_back(strategy);
        chart.bars.push_back(std::move(bar));
    }
    return "<h2>Memory</h2>\n" + render_svg_bar_chart(chart) +
           "<p class=\"note\">One bar per run, coloured and grouped by memory strategy (the "
           "allocator, host_memory, transfer, placement and activations axes).</p>\n";
}

}  // namespace

std::string render_html_report(const HtmlReportInput& input) {
    const auto axes = varying_axes(input.runs);
    const CsvTable pivot = matrix_pivot_table(input.runs, input.pivot);
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html +=
        fmt::format("<title>trainscope report: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
                    html_escape(input.title), kStyle);
    html +=
        fmt::format("<h1>trainscope report: {}</h1>\n<p class=\"note\">{} run{}.</p>\n",
                    html_escape(input.title), input.runs.size(), input.runs.size() == 1 ? "" : "s");
    html += environment_section(input);
    html += fmt::format(
        "<h2>Matrix</h2>\n<p class=\"note\">{} by {} (rows) and {} (columns): the "
        "mean over the successful runs of each cell; empty where none.</p>\n",
        html_escape(input.pivot.metric), html_escape(input.pivot.rows),
        html_escape(input.pivot.cols));
    html += table_html(pivot);
    html += runs_section(input, axes);
    html += throughput_section(input);
    html += steps_section(input, axes);
    html += kernels_section(input, axes);
    html += roofline_section(input, axes);
    html += ranks_section(input);
    html += memory_section(input, axes);
    html += "</body>\n</html>\n";
    return html;
}

void write_html_report(const HtmlReportInput& input, const std::filesystem::path& file) {
    const std::string html = render_html_report(input);
    profiler::AtomicOutputFile out(file);
    out.stream() << html;
    out.commit();
}

}  // namespace trainscope::reports
