#pragma once

#include <vector>

#include "reports/roofline/Roofline.hpp"

namespace trainscope::reports {

// Whether an op has a place on a roofline chart: FLOPs, bytes and a device time (copies,
// without FLOPs, have none).
bool on_roofline_chart(const OpRooflineRow& op);

// The whole decades a roofline chart's log-log axes span: 10^x_lo..10^x_hi FLOP/byte
// across and 10^y_lo..10^y_hi FLOP/s up, holding every op on the chart and, with known
// roofs, the ridge a decade either side, the compute roof and the memory roof at the left
// edge. At least one decade each; 0..1 when nothing is placed. The HTML report's SVG and
// the GUI's Roofline tab draw on it.
struct RooflineExtent {
    int x_lo = 0;
    int x_hi = 1;
    int y_lo = 0;
    int y_hi = 1;
};
RooflineExtent roofline_extent(const std::vector<OpRooflineRow>& ops, const Roofs& roofs);

}  // namespace trainscope::reports
