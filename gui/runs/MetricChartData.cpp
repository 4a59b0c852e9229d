#include "gui/runs/MetricChartData.hpp"

#include <QStringList>
#include <algorithm>
#include <map>
#include <set>

#include "gui/common/MetricText.hpp"
#include "reports/metrics/MetricInterval.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::gui {

ChartData buildMetricChart(const std::vector<reports::RunRecord>& runs, const std::string& metric,
                           const std::string& x_axis, const std::string& group_axis) {
    ChartData chart;
    chart.x_title = QString::fromStdString(x_axis);
    if (x_axis.empty() || metric.empty())
        return chart;  // runs without axes (imported traces): nothing to plot against
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
            // Several runs in one cell (other axes vary): reports::metric_point, the
            // HTML report's rule.
            ChartPoint pt;
            pt.x = xi;
            const auto point = reports::metric_point(rs, metric);
            pt.y = point->value;
            if (point->interval) {
                pt.low = point->interval->low;
                pt.high = point->interval->high;
            }
            QStringList warnings;
            for (const auto* r : rs) {
                for (const auto& w : reports::measurement_warnings(*r))
                    warnings << QStringLiteral("run %1: %2")
                                    .arg(r->id)
                                    .arg(QString::fromStdString(w.text));
            }
            pt.warning = warnings.join(QLatin1Char('\n'));
            s.points.push_back(pt);
        }
        chart.series.push_back(std::move(s));
    }
    chart.y_title = metricLabel(metric, unit);
    chart.title = QStringLiteral("%1 vs %2").arg(chart.y_title, chart.x_title);
    const bool any_interval =
        std::any_of(chart.series.begin(), chart.series.end(), [](const ChartSeries& cs) {
            return std::any_of(cs.points.begin(), cs.points.end(),
                               [](const ChartPoint& p) { return p.low.has_value(); });
        });
    const std::string_view what = reports::interval_description(metric);
    if (any_interval)
        chart.interval_name = QString::fromUtf8(what.data(), static_cast<qsizetype>(what.size()));
    if (!group_axis.empty())
        chart.title += QStringLiteral(", by %1").arg(QString::fromStdString(group_axis));
    return chart;
}

}  // namespace trainscope::gui
