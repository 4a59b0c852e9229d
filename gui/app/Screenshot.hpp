#pragma once

#include <QSize>
#include <QString>
#include <cstdint>
#include <optional>

namespace trainscope::gui {

struct ScreenshotRequest {
    QString database;
    QString output;
    QString view = QStringLiteral("timeline");
    std::optional<std::int64_t> run;
    QSize size{1600, 1000};
    bool dark = true;
    double zoom = 1.0;  // fraction of the trace shown, centred (timeline, utilization)
};

// Renders one view of a database into a PNG without showing a window. Returns the
// process exit code: 0 done, 2 bad input (the message is in *error).
int takeScreenshot(const ScreenshotRequest& request, QString* error);

}  // namespace trainscope::gui
