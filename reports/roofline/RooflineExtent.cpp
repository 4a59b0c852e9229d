#include "reports/roofline/RooflineExtent.hpp"

#include <algorithm>
#include <cmath>

namespace trainscope::reports {

namespace {

// The decades [10^lo, 10^hi] holding every value (and at least one decade).
void decades(double low, double high, int& lo, int& hi) {
    lo = static_cast<int>(std::floor(std::log10(low)));
    hi = std::max(static_cast<int>(std::ceil(std::log10(high))), lo + 1);
}

}  // namespace

bool on_roofline_chart(const OpRooflineRow& op) {
    return op.flops > 0.0 && op.bytes > 0.0 && op.achieved_flops_per_s > 0.0;
}

RooflineExtent roofline_extent(const std::vector<OpRooflineRow>& ops, const Roofs& roofs) {
    double x_low = 1e300, x_high = 0.0, y_low = 1e300, y_high = 0.0;
    for (const OpRooflineRow& op : ops) {
        if (!on_roofline_chart(op))
            continue;
        x_low = std::min(x_low, op.intensity);
        x_high = std::max(x_high, op.intensity);
        y_low = std::min(y_low, op.achieved_flops_per_s);
        y_high = std::max(y_high, op.achieved_flops_per_s);
    }
    if (roofs.known()) {
        x_low = std::min(x_low, roofs.ridge_intensity() / 10.0);
        x_high = std::max(x_high, roofs.ridge_intensity() * 10.0);
        y_high = std::max(y_high, roofs.peak_flops_per_s);
        y_low = std::min(y_low, roofs.attainable_flops_per_s(x_low));
    }
    RooflineExtent extent;
    if (x_high <= 0.0 || y_high <= 0.0)
        return extent;  // nothing to place: one decade each
    decades(x_low, x_high, extent.x_lo, extent.x_hi);
    decades(y_low, y_high, extent.y_lo, extent.y_hi);
    return extent;
}

}  // namespace trainscope::reports
