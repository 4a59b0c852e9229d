#pragma once

#include <QColor>
#include <QPainter>
#include <QRect>
#include <QString>

#include "gui/app/Theme.hpp"
#include "gui/timeline/TimeAxisMapping.hpp"
#include "reports/memory/MemorySeries.hpp"

namespace trainscope::gui {

// The memory lane under the utilization tracks: a traced run's bytes in use per tensor
// class, stacked, on the timeline's time axis. Each bucket of kBucketPx pixels shows the
// classes at the moment within it when their sum was largest, so a short peak (a
// forward's activations) stays visible at any zoom and the stack never exceeds the real
// total.
class MemoryLane {
  public:
    static constexpr int kBucketPx = 2;

    // The fixed colour of a class ("weights", "activations", ...), the same in both themes.
    static QColor classColor(const QString& tensor_class);
    // The index into stack.t_ns whose state the bucket [t0, t1) shows; -1 before the
    // first sample.
    static std::ptrdiff_t bucketState(const reports::MemoryStack& stack, double t0, double t1);
    // Paints the lane into `area` (the data area) and its title and legend into `label`
    // (the label column's part of the lane).
    static void paint(QPainter& p, const Theme& theme, const reports::MemoryStack& stack,
                      const TimeAxisMapping& m, const QRect& area, const QRect& label,
                      const QString& title);
};

}  // namespace trainscope::gui
