#include "gui/runs/MetricChartData.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace trainscope::gui {

namespace {
std::string base_of(const std::string& metric) {
    for (const char* suffix : {"_median", "_mean"}) {
        const std::string s(suffix);
        if (metric.size() > s.size() && metric.compare(metric.size() - s.size(), s.size(), s) == 0)
            return metric.substr(0, metric.size() - s.size());
    }
    return metric;
}
}  // namespace

std::optional<std::pair<double, double>> metricInterval(const reports::RunRecord& run,
                                                        const std::string& metric) {
    const std::string base = base_of(metric);
    const reports::Metric* lo = run.find_metric(base + "_ci_low");
    const reports::Metric* hi = run.find_metric(base + "_ci_high");
    if (lo && hi)
        return std::make_pair(std::min(lo->value, hi->value), std::max(lo->value, hi->value));
    if (metric == "images_per_s" && run.axes.batch) {
        const reports::Metric* slo = run.find_metric("step_ms_ci_low");
        const reports::Metric* shi = run.find_metric("step_ms_ci_high");
        if (slo && shi && slo->value > 0 && shi->value > 0) {
            const double b = static_cast<double>(*run.axes.batch) * 1000.0;
            return std::make_pair(b / shi->value, b / slo->value);
        }
    }
    return std::nullopt;
}

ChartData buildMetricChart(const std::vector<reports::RunRecord>& runs, const std::string& metric,
                           const std::string& x_axis, const std::string& group_axis) {
    ChartData chart;
    chart.x_title = QString::fromStdString(x_axis);
    std::string unit;
    // x values sorted numerically when they all are numbers.
    std::set<std::string> xs;
    for (const auto& r : runs) {
        if (r.status == reports::RunStatus::Ok && r.find_metric(metric))
            xs.insert(reports::axis_value(r.axes, x_axis));
    }
    std::vector<std::string> x_sorted(xs.begin(), xs.end());
    const bool numeric = std::all_of(x_sorted.begin(), x_sorted.end(), [](const std::string& s) {
        bool ok = false;
        QString::fromStdString(s).toDouble(&ok);
        return ok;
    });
    if (numeric) {
        std::sort(x_sorted.begin(), x_sorted.end(), [](const std::string& a, const std::string& b) {
            return std::stod(a) < std::stod(b);
        });
    }
    for (const auto& x : x_sorted)
        chart.x_labels << QString::fromStdString(x);
    if (numeric && x_sorted.size() > 1) {
        for (const auto& x : x_sorted)
            chart.x_values.push_back(std::stod(x));
        // Positive values spanning a factor of 8 or more (batch sizes, thread counts) read
        // best by doubling; a narrow or signed range stays linear.
        chart.log_x =
            chart.x_values.front() > 0 && chart.x_values.back() / chart.x_values.front() >= 8;
    }
    std::map<std::string, std::map<int, std::vector<const reports::RunRecord*>>> groups;
    for (const auto& r : runs) {
        const reports::Metric* m = r.find_metric(metric);
        if (r.status != reports::RunStatus::Ok || !m)
            continue;
        unit = m->unit;
        const auto xi = static_cast<int>(
            std::find(x_sorted.begin(), x_sorted.end(), reports::axis_value(r.axes, x_axis)) -
            x_sorted.begin());
        const std::string g = group_axis.empty() ? metric : reports::axis_value(r.axes, group_axis);
        groups[g][xi].push_back(&r);
    }
    for (const auto& [g, points] : groups) {
        ChartSeries s;
        s.label = group_axis.empty()
                      ? QString::fromStdString(g)
                      : QStringLiteral("%1=%2").arg(QString::fromStdString(group_axis),
                                                    QString::fromStdString(g));
        for (const auto& [xi, rs] : points) {
            // Several runs in one cell (other axes vary): their mean, and the widest CI.
            ChartPoint pt;
            pt.x = xi;
            double sum = 0;
            for (const auto* r : rs) {
                sum += r->find_metric(metric)->value;
                if (auto ci = metricInterval(*r, metric)) {
                    pt.low = std::min(pt.low.value_or(ci->first), ci->first);
                    pt.high = std::max(pt.high.value_or(ci->second), ci->second);
                }
            }
            pt.y = sum / static_cast<double>(rs.size());
            s.points.push_back(pt);
        }
        chart.series.push_back(std::move(s));
    }
    chart.y_title =
        QString::fromStdString(metric) +
        (unit.empty() ? QString() : QStringLiteral(" [%1]").arg(QString::fromStdString(unit)));
    chart.title = QStringLiteral("%1 vs %2").arg(QString::fromStdString(metric), chart.x_title);
    if (!group_axis.empty())
        chart.title += QStringLiteral(", by %1").arg(QString::fromStdString(group_axis));
    return chart;
}

}  // namespace trainscope::gui
