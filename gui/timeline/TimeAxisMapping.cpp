#include "gui/timeline/TimeAxisMapping.hpp"

#include <algorithm>

namespace trainscope::gui {

TimeAxisMapping::TimeAxisMapping(double start_ns, double ns_per_pixel, int width_px)
    : start_ns_(start_ns),
      ns_per_px_(std::clamp(ns_per_pixel, kMinNsPerPixel, kMaxNsPerPixel)),
      width_px_(std::max(width_px, 0)) {}

TimeAxisMapping TimeAxisMapping::fit(double begin_ns, double end_ns, int width_px) {
    const int w = std::max(width_px, 1);
    const double span = std::max(end_ns - begin_ns, 1.0);
    return TimeAxisMapping(begin_ns, span / w, w);
}

TimeAxisMapping TimeAxisMapping::zoomed(double factor, double anchor_x) const {
    const double anchor_t = mapXToTime(anchor_x);
    const double scale = std::clamp(ns_per_px_ * factor, kMinNsPerPixel, kMaxNsPerPixel);
    return TimeAxisMapping(anchor_t - anchor_x * scale, scale, width_px_);
}

TimeAxisMapping TimeAxisMapping::panned(double dx_px) const {
    return TimeAxisMapping(start_ns_ + dx_px * ns_per_px_, ns_per_px_, width_px_);
}

TimeAxisMapping TimeAxisMapping::withWidth(int width_px) const {
    return TimeAxisMapping(start_ns_, ns_per_px_, width_px);
}

}  // namespace trainscope::gui
