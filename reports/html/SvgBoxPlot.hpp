#pragma once

#include <string>
#include <vector>

namespace trainscope::reports {

// Five-number summary of one sample: whiskers at p5 and p95, box from p25 to p75,
// median line (reports::quantile: linear interpolation, numpy's default).
struct BoxStats {
    std::string label;
    std::size_t count = 0;
    double p5 = 0.0;
    double p25 = 0.0;
    double median = 0.0;
    double p75 = 0.0;
    double p95 = 0.0;
};

// nullopt-free: an empty sample gives count 0 and zeros.
BoxStats box_stats(std::string label, std::vector<double> values);

// Horizontal box plots, one per box, on a shared value axis starting at 0.
std::string render_svg_box_plot(const std::string& title, const std::string& value_label,
                                const std::vector<BoxStats>& boxes);

}  // namespace trainscope::reports
