#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gui/charts/LineChart.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::gui {

// The confidence interval of a metric in a run, if the run has one: metric
// "<base>_ci_low/_ci_high" for "<base>_median|_mean|<base>", and for images_per_s the
// interval implied by the step time's (images/s = batch / step time).
std::optional<std::pair<double, double>> metricInterval(const reports::RunRecord& run,
                                                        const std::string& metric);

// metric against x_axis, one line per value of group_axis ("" = one line); ok runs only.
ChartData buildMetricChart(const std::vector<reports::RunRecord>& runs, const std::string& metric,
                           const std::string& x_axis, const std::string& group_axis);

}  // namespace trainscope::gui
