#pragma once

#include <string>
#include <vector>

#include "reports/roofline/Roofline.hpp"

namespace trainscope::reports {

// A roofline chart as inline SVG: arithmetic intensity (FLOP/byte) against achieved
// FLOP/s, both axes logarithmic (decades); the memory roof (intensity × bandwidth) up
// to the ridge and the compute roof from there; one circle per op, its area in
// proportion to the op's share of device time, coloured by category, with a tooltip.
// Ops without FLOPs (copies) have no place on it and are left out. Without known roofs
// the points are drawn alone. All text escaped.
std::string render_svg_roofline(const std::string& title, const std::vector<OpRooflineRow>& ops,
                                const Roofs& roofs);

}  // namespace trainscope::reports
