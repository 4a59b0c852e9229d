#pragma once

#include <string>
#include <vector>

#include "gui/charts/LineChart.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::gui {

// metric against x_axis, one line per value of group_axis ("" = one line); ok runs only.
// Error bars are the interval of the statistic plotted (reports::metric_interval: the
// median's own for a median); points with a measurement warning carry its text.
ChartData buildMetricChart(const std::vector<reports::RunRecord>& runs, const std::string& metric,
                           const std::string& x_axis, const std::string& group_axis);

}  // namespace trainscope::gui
