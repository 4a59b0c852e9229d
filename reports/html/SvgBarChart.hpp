#pragma once

#include <string>
#include <vector>

namespace trainscope::reports {

struct BarSegment {
    std::string series;  // colour and legend entry
    double value = 0.0;
};

struct Bar {
    std::string label;
    std::vector<BarSegment> segments;  // stacked left to right
};

// Horizontal bars, one per label, each a stack of segments; the value axis starts at 0.
// series_order fixes the legend and the colours (segments of other series get colours
// after those).
struct BarChart {
    std::string title;
    std::string value_label;
    std::vector<std::string> series_order;
    std::vector<Bar> bars;
};

// Inline SVG (no external references); all text escaped.
std::string render_svg_bar_chart(const BarChart& chart);

}  // namespace trainscope::reports
