#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include "gui/timeline/KernelCategory.hpp"

namespace trainscope::gui {

// Every colour the GUI paints, in one place: the widgets' palette and the colours the
// views, charts and renderers paint with, for a dark and a light palette. The colours
// that carry meaning (categories, series, status, tracks) are the same in both: they
// are chosen to read on either background, and a user switching palettes should not
// have to learn them again.
struct Theme {
    bool dark = true;

    // Surfaces and text of the painted views (timeline, utilization, charts).
    QColor background;        // data area, chart background
    QColor lane_alt;          // every other lane or track
    QColor label_background;  // label column, the ruler's corner
    QColor text;
    QColor dim_text;  // secondary labels, minor ticks
    QColor grid;
    QColor ruler;  // ruler and legend bars
    QColor separator;
    QColor highlight;  // selection, search matches, flow arrow, time origin
    QColor selection;  // the selected range's band (translucent)

    // The same in both palettes.
    static inline const QColor ink_on_light = QColor(0x10, 0x10, 0x10);  // text on a light fill
    static inline const QColor ink_on_dark = QColor(0xf8, 0xf8, 0xf8);   // text on a dark fill
    static inline const QColor device =
        QColor(0x76, 0xb9, 0x00);  // device lanes' marks, busy tracks
    static inline const QColor nvtx_lane = QColor(0x6a, 0x9b, 0xc4);  // NVTX lanes' marks
    static inline const QColor host_lane = QColor(0xb8, 0xa6, 0x58);  // host lanes' marks
    static inline const QColor counter_percent = QColor(0x3d, 0x7e, 0xdb);
    static inline const QColor counter_power = QColor(0xf0, 0x8c, 0x28);
    static inline const QColor counter_other = QColor(0x8e, 0x5c, 0xd6);
    static inline const QColor failed = QColor(0xe0, 0x40, 0x40);   // failed runs
    static inline const QColor skipped = QColor(0x90, 0x90, 0x90);  // skipped runs
    static inline const QColor warning =
        QColor(0xe0, 0x9a, 0x20);  // timings taken on a busy machine (amber)
    // A comparison's verdict: B better (faster, less memory) or worse than A.
    static inline const QColor better = QColor(0x3f, 0xb5, 0x6b);
    static inline const QColor worse = QColor(0xe0, 0x4a, 0x4a);

    // The widgets' palette (Fusion style): the dark one is ours, the light one Fusion's
    // own standard palette.
    [[nodiscard]] QPalette widgetPalette() const;
    // Whether text on a fill of colour c should be dark (ink_on_light).
    [[nodiscard]] static bool isLight(const QColor& c);

    static const Theme& get(bool dark);
};

// Fusion style with the dark or the light theme's widget palette.
void applyPalette(bool dark);

// A category's colour (kernels by category, copies, sets, API calls; the same in both
// palettes).
QColor category_color(Category category);
// NVTX ranges and host ops are coloured by name, so that stacks read like a flame graph.
QColor nvtx_color(const QString& name);
QColor host_op_color(const QString& name);
// The colour of a chart's series `index` (cycles).
QColor seriesColor(int index);

}  // namespace trainscope::gui
