#pragma once

#include <QString>
#include <string>

namespace trainscope::gui {

// A metric value for people: 3 decimals below 10, 2 below 1000, none above or for whole
// numbers, thousands grouped ("14,600").
QString displayNumber(double value);
// A metric value for a CSV cell: the shortest text that reads back to the same double.
QString plainNumber(double value);
// "Step time, median (ms)" from the catalog (reports::metric_label).
QString metricLabel(const std::string& tag, const std::string& stored_unit = {});
// The catalog's description and direction, for a header tooltip; the tag for others.
QString metricToolTip(const std::string& tag);

}  // namespace trainscope::gui
