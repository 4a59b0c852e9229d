#pragma once

#include <cstdint>

namespace trainscope::gui {

// Time <-> pixel maths of a horizontal time axis: x = 0 is the left edge of the data
// area, time is in nanoseconds on the trace clock. A small value type: views share it
// (timeline, utilization), tests check it row by row.
class TimeAxisMapping {
  public:
    static constexpr double kMinNsPerPixel = 1e-3;  // 1 ps per pixel: deep enough
    static constexpr double kMaxNsPerPixel = 1e12;

    TimeAxisMapping() = default;
    TimeAxisMapping(double start_ns, double ns_per_pixel, int width_px);
    // The whole [begin, end] range fills width_px pixels.
    static TimeAxisMapping fit(double begin_ns, double end_ns, int width_px);

    [[nodiscard]] double mapTimeToX(double t_ns) const { return (t_ns - start_ns_) / ns_per_px_; }
    [[nodiscard]] double mapXToTime(double x) const { return start_ns_ + x * ns_per_px_; }

    // factor < 1 zooms in. The time under anchor_x stays under anchor_x (unless the
    // scale hits its limits, then the anchor time still stays fixed).
    [[nodiscard]] TimeAxisMapping zoomed(double factor, double anchor_x) const;
    // Moves the view by dx pixels: positive dx shows later times.
    [[nodiscard]] TimeAxisMapping panned(double dx_px) const;
    // Same start and scale, another width (a resize shows more, it does not rescale).
    [[nodiscard]] TimeAxisMapping withWidth(int width_px) const;

    [[nodiscard]] double startNs() const { return start_ns_; }
    [[nodiscard]] double endNs() const { return start_ns_ + ns_per_px_ * width_px_; }
    [[nodiscard]] double nsPerPixel() const { return ns_per_px_; }
    [[nodiscard]] double durationNs() const { return ns_per_px_ * width_px_; }
    [[nodiscard]] int width() const { return width_px_; }
    [[nodiscard]] bool isValid() const { return width_px_ > 0; }

    friend bool operator==(const TimeAxisMapping&, const TimeAxisMapping&) = default;

  private:
    double start_ns_ = 0.0;
    double ns_per_px_ = 1.0;
    int width_px_ = 0;
};

}  // namespace trainscope::gui
