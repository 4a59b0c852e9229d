#pragma once

#include <optional>
#include <string>
#include <vector>

namespace trainscope::reports {

struct LinePoint {
    std::string x;  // one of LineChart::x_categories
    double y = 0.0;
    std::optional<double> low;  // whisker (e.g. a confidence interval), when known
    std::optional<double> high;
};

struct LineSeries {
    std::string name;
    std::vector<LinePoint> points;
};

// A line chart over categorical x values (batch sizes), one line per series, with
// optional whiskers; the y axis starts at 0.
struct LineChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<std::string> x_categories;
    std::vector<LineSeries> series;
};

// Inline SVG (no external references); all text escaped.
std::string render_svg_line_chart(const LineChart& chart);

}  // namespace trainscope::reports
